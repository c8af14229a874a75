package games

import (
	"bytes"
	"io"
	"strings"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func cmpString(a, b string) int { return strings.Compare(a, b) }
