// Package ptx reads PTX text into the ir package's struct-of-arrays form
// and prints it back as valid PTX.
//
// The lexer works on bytes, without regular expressions; it tracks the
// line and the start of the line so that errors name line:column. The
// parser (parser.go) keeps a single current token and never builds a token
// slice, so parsing allocates only for the IR itself and for new strings.
package ptx

import (
	"bytes"
	"fmt"
	"strconv"
)

// Error is a parse error with its position (1-based line and byte column).
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

func (e *Error) Error() string {
	return e.File + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

type tokKind uint8

const (
	tEOF   tokKind = iota
	tWord          // identifier, directive, dotted mnemonic, %reg, $label
	tNum           // a number literal (integer, 0f/0d float, decimal float)
	tStr           // a "string"
	tPunct         // one punctuation byte, in lexer.ch
	tBad           // a byte that starts no token, or an unterminated comment/string
)

func (k tokKind) String() string {
	switch k {
	case tEOF:
		return "end of file"
	case tWord:
		return "identifier"
	case tNum:
		return "number"
	case tStr:
		return "string"
	case tPunct:
		return "punctuation"
	}
	return "invalid input"
}

// Character classes.
const (
	cSpace  = 1 << iota // blank, tab, CR, LF, FF, VT
	cStart              // may start a word: letter _ $ % .
	cWord               // may continue a word: letter digit _ $ .
	cDigit              // 0-9
	cNumCon             // may continue a number: letter digit _ .
)

var class [256]uint8

func init() {
	for _, c := range []byte(" \t\r\n\f\v") {
		class[c] |= cSpace
	}
	for c := 'a'; c <= 'z'; c++ {
		class[c] |= cStart | cWord | cNumCon
		class[c-'a'+'A'] |= cStart | cWord | cNumCon
	}
	for c := '0'; c <= '9'; c++ {
		class[c] |= cWord | cDigit | cNumCon
	}
	for _, c := range []byte("_$") {
		class[c] |= cStart | cWord | cNumCon
	}
	class['%'] |= cStart
	class['.'] |= cStart | cWord | cNumCon
}

type lexer struct {
	src       []byte
	pos       int
	line      int // current line (1-based) at pos
	lineStart int // offset of the start of the current line

	// The current token.
	kind   tokKind
	ch     byte // tPunct: the byte
	start  int  // token bytes src[start:end]
	end    int
	tline  int // line of the token's first byte
	tlstrt int // start offset of that line
	badMsg string
	hash   uint32 // tWord: FNV-1a hash of the token bytes
}

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

func hashBytes(b []byte) uint32 {
	h := uint32(fnvOffset)
	for _, c := range b {
		h = (h ^ uint32(c)) * fnvPrime
	}
	return h
}

// prepare returns the text the lexer reads for the file src, with the
// same byte positions as src (so that errors name the file as stored):
//
//   - NUL bytes at the end, and the blanks around them, are dropped (PTX
//     saved from a C string, as NVRTC and the driver hand it out, ends
//     with one or more NULs); a NUL anywhere else stays, and the lexer
//     reports it at its position;
//   - a UTF-8 byte-order mark at the start becomes three blanks;
//   - a CR not followed by LF (old Mac line ends) becomes LF, so it ends a
//     line as CRLF and LF do.
//
// src is copied only when a byte must change; otherwise the result is a
// prefix of src.
func prepare(src []byte) []byte {
	end := len(src)
	nul := false
	for end > 0 && (src[end-1] == 0 || class[src[end-1]]&cSpace != 0) {
		nul = nul || src[end-1] == 0
		end--
	}
	if nul {
		src = src[:end]
	}
	bom := len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF
	lone := loneCR(src, 0)
	if !bom && lone < 0 {
		return src
	}
	out := make([]byte, len(src))
	copy(out, src)
	if bom {
		out[0], out[1], out[2] = ' ', ' ', ' '
	}
	for i := lone; i >= 0; i = loneCR(out, i+1) {
		out[i] = '\n'
	}
	return out
}

// loneCR returns the offset of the first CR at or after from that no LF
// follows, or -1.
func loneCR(b []byte, from int) int {
	for from < len(b) {
		k := bytes.IndexByte(b[from:], '\r')
		if k < 0 {
			return -1
		}
		i := from + k
		if i+1 >= len(b) || b[i+1] != '\n' {
			return i
		}
		from = i + 2
	}
	return -1
}

func (l *lexer) init(src []byte) {
	l.src = src
	l.pos = 0
	l.line = 1
	l.lineStart = 0
}

// text returns the current token's bytes.
func (l *lexer) text() []byte { return l.src[l.start:l.end] }

// col returns the 1-based byte column of offset off, which must be on the
// token's line.
func (l *lexer) colOf(off int) int { return off - l.tlstrt + 1 }

// skipSpace skips blanks and comments. It reports false and sets a tBad
// token on an unterminated block comment.
func (l *lexer) skipSpace() bool {
	src := l.src
	for l.pos < len(src) {
		c := src[l.pos]
		if class[c]&cSpace != 0 {
			l.pos++
			if c == '\n' {
				l.line++
				l.lineStart = l.pos
			}
			continue
		}
		if c == '/' && l.pos+1 < len(src) {
			switch src[l.pos+1] {
			case '/':
				i := l.pos + 2
				for i < len(src) && src[i] != '\n' {
					i++
				}
				l.pos = i
				continue
			case '*':
				startLine, startLS, startPos := l.line, l.lineStart, l.pos
				i := l.pos + 2
				for {
					if i+1 >= len(src) {
						l.kind = tBad
						l.start, l.end = startPos, startPos+2
						l.tline, l.tlstrt = startLine, startLS
						l.badMsg = "unterminated block comment"
						l.pos = len(src)
						return false
					}
					if src[i] == '*' && src[i+1] == '/' {
						break
					}
					if src[i] == '\n' {
						l.line++
						l.lineStart = i + 1
					}
					i++
				}
				l.pos = i + 2
				continue
			}
		}
		break
	}
	return true
}

// next advances to the next token.
func (l *lexer) next() {
	if !l.skipSpace() {
		return
	}
	src := l.src
	l.start = l.pos
	l.tline = l.line
	l.tlstrt = l.lineStart
	if l.pos >= len(src) {
		l.kind = tEOF
		l.end = l.pos
		return
	}
	c := src[l.pos]
	cl := class[c]
	switch {
	case cl&cStart != 0:
		i := l.pos + 1
		h := (uint32(fnvOffset) ^ uint32(c)) * fnvPrime
		for i < len(src) {
			d := src[i]
			if class[d]&cWord != 0 {
				h = (h ^ uint32(d)) * fnvPrime
				i++
				continue
			}
			// "::" inside a word (shared::cta, L2::cache_hint, …).
			if d == ':' && i+2 < len(src) && src[i+1] == ':' && class[src[i+2]]&cWord != 0 && src[i+2] != '.' {
				h = (h ^ ':') * fnvPrime
				h = (h ^ ':') * fnvPrime
				i += 2
				continue
			}
			break
		}
		l.hash = h
		l.kind = tWord
		l.pos = i
	case cl&cDigit != 0:
		i := l.pos + 1
		for i < len(src) {
			d := src[i]
			if class[d]&cNumCon != 0 {
				i++
				continue
			}
			// A signed exponent in a decimal float: 1e-5, 2.5E+3.
			if (d == '+' || d == '-') && (src[i-1] == 'e' || src[i-1] == 'E') && isDecimalFloatPrefix(src[l.pos:i]) {
				i++
				continue
			}
			break
		}
		l.kind = tNum
		l.pos = i
	case c == '"':
		i := l.pos + 1
		for i < len(src) && src[i] != '"' && src[i] != '\n' {
			if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			i++
		}
		if i >= len(src) || src[i] != '"' {
			l.kind = tBad
			l.badMsg = "unterminated string"
			l.end = l.start + 1
			l.pos = len(src)
			return
		}
		l.kind = tStr
		l.pos = i + 1
	default:
		switch c {
		case ',', ';', ':', '{', '}', '[', ']', '(', ')', '<', '>', '+', '-', '!', '@', '|', '=', '*', '/', '~', '&', '^', '?':
			l.kind = tPunct
			l.ch = c
			l.pos++
		default:
			l.kind = tBad
			l.badMsg = "unexpected character " + strconv.QuoteRune(rune(c))
			if c >= 0x80 {
				l.badMsg = fmt.Sprintf("unexpected byte 0x%02x", c)
			}
			l.end = l.pos + 1
			return
		}
	}
	l.end = l.pos
}

// isDecimalFloatPrefix reports whether b (digits, maybe a dot, ending in
// e/E) is the start of a decimal float with an exponent.
func isDecimalFloatPrefix(b []byte) bool {
	if len(b) < 2 {
		return false
	}
	if b[0] == '0' && len(b) > 1 && (b[1] == 'x' || b[1] == 'X' || b[1] == 'f' || b[1] == 'F' || b[1] == 'd' || b[1] == 'D' || b[1] == 'b' || b[1] == 'B') {
		return false
	}
	for _, c := range b[:len(b)-1] {
		if !(c >= '0' && c <= '9' || c == '.') {
			return false
		}
	}
	return true
}

// restOfLine returns the offsets of the text from pos to the end of the
// line, without a trailing // or /* comment, a ';' and what follows, and
// the blanks at either end, and moves pos to the comment, ';' or newline
// (not past it). Used for directives that end at the line's end (.loc,
// .file, .version, .target, .address_size).
func (l *lexer) restOfLine() (int, int) {
	src := l.src
	i := l.pos
	inStr := false
	end := -1
	for i < len(src) && src[i] != '\n' {
		c := src[i]
		if inStr {
			if c == '\\' && i+1 < len(src) && src[i+1] != '\n' {
				i++
			} else if c == '"' {
				inStr = false
			}
		} else if c == '"' {
			inStr = true
		} else if c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*') {
			end = i
			break
		} else if c == ';' {
			end = i
			break
		}
		i++
	}
	if end < 0 {
		end = i
	}
	start := l.pos
	for start < end && (src[start] == ' ' || src[start] == '\t') {
		start++
	}
	for end > start && class[src[end-1]]&cSpace != 0 {
		end--
	}
	// Resume lexing at the comment, the ';' (a stray ';' after .loc is
	// harmless and skipped by the caller) or the newline.
	l.pos = i
	return start, end
}
