package ddb

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Value is one attribute value: S, N, B, SS, NS, BS, L, M, BOOL or NULL,
// as DynamoDB's types are named. It travels as {"<type>": value}.
type Value interface {
	json.Marshaler
	value()
}

type (
	// S is a string.
	S string
	// N is a number, in its decimal text.
	N string
	// B is binary (base64 in the JSON).
	B []byte
	// SS is a set of strings.
	SS []string
	// NS is a set of numbers.
	NS []string
	// BS is a set of binaries.
	BS [][]byte
	// L is a list.
	L []Value
	// M is a map.
	M map[string]Value
	// BOOL is a boolean.
	BOOL bool
	// NULL is the null value (always true).
	NULL bool
)

func (S) value()    {}
func (N) value()    {}
func (B) value()    {}
func (SS) value()   {}
func (NS) value()   {}
func (BS) value()   {}
func (L) value()    {}
func (M) value()    {}
func (BOOL) value() {}
func (NULL) value() {}

// Int is the number n.
func Int(n int64) N { return N(strconv.FormatInt(n, 10)) }

// Item is an item, or a key: attribute values by name. It travels as a
// map of values; an M is one value holding the same.
type Item map[string]Value

func (v S) MarshalJSON() ([]byte, error)    { return appendValue(nil, v), nil }
func (v N) MarshalJSON() ([]byte, error)    { return appendValue(nil, v), nil }
func (v B) MarshalJSON() ([]byte, error)    { return appendValue(nil, v), nil }
func (v SS) MarshalJSON() ([]byte, error)   { return appendValue(nil, v), nil }
func (v NS) MarshalJSON() ([]byte, error)   { return appendValue(nil, v), nil }
func (v BS) MarshalJSON() ([]byte, error)   { return appendValue(nil, v), nil }
func (v L) MarshalJSON() ([]byte, error)    { return appendValue(nil, v), nil }
func (v M) MarshalJSON() ([]byte, error)    { return appendValue(nil, v), nil }
func (v BOOL) MarshalJSON() ([]byte, error) { return appendValue(nil, v), nil }
func (v NULL) MarshalJSON() ([]byte, error) { return appendValue(nil, v), nil }

// MarshalJSON writes the item as DynamoDB takes it, attributes in name
// order.
func (it Item) MarshalJSON() ([]byte, error) { return appendMap(nil, it), nil }

// appendValue appends v's JSON ({"S":"..."}) to b.
func appendValue(b []byte, v Value) []byte {
	switch v := v.(type) {
	case S:
		return appendString(append(b, `{"S":`...), string(v), '}')
	case N:
		return appendString(append(b, `{"N":`...), string(v), '}')
	case B:
		b = append(b, `{"B":"`...)
		return append(base64.StdEncoding.AppendEncode(b, v), `"}`...)
	case SS:
		return append(appendStrings(append(b, `{"SS":`...), v), '}')
	case NS:
		return append(appendStrings(append(b, `{"NS":`...), v), '}')
	case BS:
		b = append(b, `{"BS":[`...)
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(base64.StdEncoding.AppendEncode(append(b, '"'), e), '"')
		}
		return append(b, "]}"...)
	case L:
		b = append(b, `{"L":[`...)
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e)
		}
		return append(b, "]}"...)
	case M:
		return append(appendMap(append(b, `{"M":`...), v), '}')
	case BOOL:
		return append(b, `{"BOOL":`+strconv.FormatBool(bool(v))+`}`...)
	case NULL:
		return append(b, `{"NULL":true}`...)
	}
	return append(b, "null"...) // a nil Value: DynamoDB refuses it
}

func appendMap[T ~map[string]Value](b []byte, m T) []byte {
	b = append(b, '{')
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendValue(appendString(b, k, ':'), m[k])
	}
	return append(b, '}')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s, 0)
	}
	return append(b, ']')
}

// appendString appends s as a JSON string, then end unless it is 0. Like
// encoding/json it escapes quotes, backslashes, control characters and
// U+2028/U+2029, and writes invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string, end byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(append(b, s[start:]...), '"')
	if end != 0 {
		b = append(b, end)
	}
	return b
}

// UnmarshalJSON reads an item as DynamoDB gives it.
func (it *Item) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw == nil {
		*it = nil
		return nil
	}
	m, err := decodeMap(raw)
	*it = Item(m)
	return err
}

func decodeMap(raw map[string]json.RawMessage) (M, error) {
	m := make(M, len(raw))
	for k, r := range raw {
		v, err := decodeValue(r)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k, err)
		}
		m[k] = v
	}
	return m, nil
}

// wireValue is a value as it travels: exactly one field set.
type wireValue struct {
	S    *string
	N    *string
	B    []byte
	SS   []string
	NS   []string
	BS   [][]byte
	L    []json.RawMessage
	M    map[string]json.RawMessage
	BOOL *bool
	NULL *bool
}

func decodeValue(data []byte) (Value, error) {
	var w wireValue
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	switch {
	case w.S != nil:
		return S(*w.S), nil
	case w.N != nil:
		return N(*w.N), nil
	case w.B != nil:
		return B(w.B), nil
	case w.SS != nil:
		return SS(w.SS), nil
	case w.NS != nil:
		return NS(w.NS), nil
	case w.BS != nil:
		return BS(w.BS), nil
	case w.L != nil:
		l := make(L, len(w.L))
		for i, r := range w.L {
			v, err := decodeValue(r)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			l[i] = v
		}
		return l, nil
	case w.M != nil:
		return decodeMap(w.M)
	case w.BOOL != nil:
		return BOOL(*w.BOOL), nil
	case w.NULL != nil:
		return NULL(true), nil
	}
	return nil, errors.New("attribute value of no known type")
}
