package httpgzip

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"net/http"
	"strconv"
)

// A page that is the same in every answer but for a few bytes (a form's
// fresh key) can be compressed ahead of time, outside the request: its
// text before the bytes that change and its text after them, each a raw
// DEFLATE piece of its own (DeflateHalves). An answer is then the gzip of
// the two pieces with the bytes of that answer between them, stored
// uncompressed (Spliced): a few microseconds and a copy, where
// compressing it whole takes the compressor's 0.8 MB (compress/flate
// holds its hash tables inline at every level) and most of a millisecond
// at a cold start (issue 24).
//
// It is DEFLATE as RFC 1951 has it: the first piece ends with a sync
// flush, which leaves the stream at a byte boundary after a block that is
// not the last; the bytes between go in a stored block of their own
// (BFINAL 0, BTYPE 00: one byte, then LEN and NLEN); the second piece is
// compressed anew and ends the stream. Neither piece refers to a byte
// outside itself, so each decodes the same wherever it stands.

// DeflateHalves compresses before and after as the two pieces Spliced
// puts together, at flate.BestCompression (done once, ahead of time).
func DeflateHalves(before, after []byte) (head, tail []byte, err error) {
	deflate := func(text []byte, last bool) ([]byte, error) {
		var out bytes.Buffer
		zw, err := flate.NewWriter(&out, flate.BestCompression)
		if err != nil {
			return nil, err
		}
		if _, err := zw.Write(text); err != nil {
			return nil, err
		}
		if last {
			err = zw.Close()
		} else {
			err = zw.Flush() // a sync flush: byte aligned, not final
		}
		if err != nil {
			return nil, err
		}
		return out.Bytes(), nil
	}
	if head, err = deflate(before, false); err != nil {
		return nil, nil, fmt.Errorf("httpgzip: deflate the text before: %w", err)
	}
	if tail, err = deflate(after, true); err != nil {
		return nil, nil, fmt.Errorf("httpgzip: deflate the text after: %w", err)
	}
	return head, tail, nil
}

// gzipHeader is the header of the gzips Spliced makes: no name, no time,
// no flags, the operating system unknown (as compress/gzip writes it).
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// Spliced is the gzip of before, middle and after, one after another,
// from head and tail, DeflateHalves' pieces of before and after; middle
// is stored as it is. It fails for a middle longer than a stored block
// (64 KB).
func Spliced(head, tail, before, middle, after []byte) ([]byte, error) {
	if len(middle) > 0xffff {
		return nil, errors.New("httpgzip: the text between the pieces is longer than a stored block")
	}
	size := len(before) + len(middle) + len(after)
	out := make([]byte, 0, len(gzipHeader)+len(head)+5+len(middle)+len(tail)+8)
	out = append(out, gzipHeader...)
	out = append(out, head...)
	if len(middle) > 0 {
		out = append(out, 0) // BFINAL 0, BTYPE 00 (stored), padded to the byte
		out = binary.LittleEndian.AppendUint16(out, uint16(len(middle)))
		out = binary.LittleEndian.AppendUint16(out, ^uint16(len(middle)))
		out = append(out, middle...)
	}
	out = append(out, tail...)
	crc := crc32.Update(crc32.Update(crc32.ChecksumIEEE(before), crc32.IEEETable, middle), crc32.IEEETable, after)
	out = binary.LittleEndian.AppendUint32(out, crc)
	return binary.LittleEndian.AppendUint32(out, uint32(size)), nil
}

// Wants tells whether Handler would compress the answer to r, were it
// text of MinSize bytes or more: r accepts gzip and is not a HEAD.
func Wants(r *http.Request) bool {
	return r.Method != http.MethodHead && Accepts(r.Header.Values("Accept-Encoding"))
}

// WriteGzipped answers, with status, gz: a text answer compressed ahead
// of time (Spliced) for a request that Wants it, with the headers
// Handler gives the answers it compresses (Content-Encoding,
// Content-Length, Vary); the Content-Type is the caller's to set.
// Handler passes an answer so encoded through as it is.
func WriteGzipped(w http.ResponseWriter, status int, gz []byte) {
	h := w.Header()
	h.Set("Content-Encoding", "gzip")
	h.Set("Content-Length", strconv.Itoa(len(gz)))
	h.Add("Vary", "Accept-Encoding")
	w.WriteHeader(status)
	_, _ = w.Write(gz)
}
