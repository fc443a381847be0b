package extract

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// A note names one change a repair rule makes: the kind of fix it records
// and how it reads to a person. The rules record notes, and a [Fix] is
// built from one only for a candidate that is returned.
type note uint8

const (
	noteTrailingComma note = iota
	noteCommaNoMember
	noteCommaNoElement
	noteCommaNoValue
	noteMissingComma
	noteMissingColon
	noteLineComment
	noteBlockComment
	noteSingleQuote
	noteSmartQuote
	noteUnquotedKey
	noteUnquotedWord
	noteProse
	noteRegexp
	noteNumberLike
	noteKeyOpeningQuote
	noteStringOpeningQuote
	noteStringClosingQuote
	noteEscapedJSON
	notePythonLiteral
	noteNonFinite
	noteRawControl
	noteEscapedQuote
	noteInvalidEscape
	noteBackslashLineEnd
	noteBackslashSmartQuote
	noteLoneBackslash
	noteLayoutBreak
	noteNumber
	noteDigitSeparators
	noteEllipsis
	noteMissingValue
	noteDanglingKey
	noteBracketInserted
	noteBracketEarly
	noteBracketStray
	noteBracketReplaced
	noteBracketsAround
	noteParentheses
	noteTuple
	noteWhitespace
	noteCall
	noteSemicolon
	noteConcatenation
	noteLeftOpen
	noteStringLeftOpen
	noteBackslashAtEnd
	noteEscapeAtEnd
)

// notes says, for each note, its kind of fix and its text: a fixed one, or
// one written from the fix's before and after.
var notes = [...]struct {
	kind     FixKind
	text     string
	describe func(before, after string) string
}{
	noteTrailingComma:  {kind: FixTrailingComma, text: "removed a trailing comma"},
	noteCommaNoMember:  {kind: FixTrailingComma, text: "removed a comma with no member before it"},
	noteCommaNoElement: {kind: FixTrailingComma, text: "removed a comma with no element before it"},
	noteCommaNoValue:   {kind: FixTrailingComma, text: "removed a comma with no value before it"},
	noteMissingComma:   {kind: FixMissingComma, text: "inserted a missing ','"},
	noteMissingColon:   {kind: FixMissingColon, text: "inserted a missing ':'"},
	noteLineComment:    {kind: FixComment, text: "removed a line comment"},
	noteBlockComment:   {kind: FixComment, text: "removed a block comment"},
	noteSingleQuote:    {kind: FixSingleQuote, text: "replaced single quotes with double quotes"},
	noteSmartQuote:     {kind: FixSmartQuote, text: "replaced typographic quotes with double quotes"},
	noteUnquotedKey:    {kind: FixUnquotedKey, text: "quoted a bare key"},
	noteUnquotedWord:   {kind: FixUnquotedString, text: "quoted a bare word"},
	noteProse:          {kind: FixUnquotedString, text: "read a reply in plain words as a string"},
	noteRegexp:         {kind: FixUnquotedString, text: "quoted a regular expression"},
	noteNumberLike: {kind: FixUnquotedString, describe: func(b, _ string) string {
		return "quoted " + clipWord(b) + ", which starts like a number but is none"
	}},
	noteKeyOpeningQuote:    {kind: FixMissingQuote, text: "supplied the key's missing opening quote"},
	noteStringOpeningQuote: {kind: FixMissingQuote, text: "supplied the string's missing opening quote"},
	noteStringClosingQuote: {kind: FixMissingQuote, text: "supplied the string's missing closing quote"},
	noteEscapedJSON:        {kind: FixEscapedJSON, text: `read \" as a quote`},
	notePythonLiteral:      {kind: FixPythonLiteral, describe: replaced},
	noteNonFinite:          {kind: FixNonFinite, describe: replaced},
	noteRawControl: {kind: FixStringEscape, describe: func(b, _ string) string {
		return "escaped a raw " + controlName(b[0]) + " inside a string"
	}},
	noteEscapedQuote:        {kind: FixStringEscape, text: "escaped a quote inside a string"},
	noteInvalidEscape:       {kind: FixStringEscape, text: `replaced the invalid escape \' with '`},
	noteBackslashLineEnd:    {kind: FixStringEscape, text: "read a backslash at a line end as a line break"},
	noteBackslashSmartQuote: {kind: FixStringEscape, text: "dropped the backslash before a typographic quote"},
	noteLoneBackslash:       {kind: FixStringEscape, text: "escaped a lone backslash"},
	noteLayoutBreak:         {kind: FixStringEscape, text: "dropped a line break before the closing quote"},
	noteNumber: {kind: FixNumber, describe: func(b, a string) string {
		return "rewrote the number " + clipWord(b) + " as " + clipWord(a)
	}},
	noteDigitSeparators: {kind: FixNumber, describe: func(b, _ string) string {
		return "removed the digit separators of " + clipWord(b)
	}},
	noteEllipsis:     {kind: FixEllipsis, text: "removed a '...' placeholder"},
	noteMissingValue: {kind: FixMissingValue, text: "gave a key without a value null"},
	noteDanglingKey:  {kind: FixDanglingKey, text: "dropped a key left without a value"},
	noteBracketInserted: {kind: FixBracket, describe: func(_, a string) string {
		return "inserted a missing '" + a + "'"
	}},
	noteBracketEarly: {kind: FixBracket, text: "removed a '}' that closed the object early"},
	noteBracketStray: {kind: FixBracket, describe: func(b, _ string) string {
		return "removed a stray '" + b + "'"
	}},
	noteBracketReplaced: {kind: FixBracket, describe: func(b, a string) string {
		return "replaced '" + b + "' with '" + a + "'"
	}},
	noteBracketsAround: {kind: FixBracket, text: "put brackets around values separated by commas"},
	noteParentheses:    {kind: FixBracket, text: "removed the parentheses around a value"},
	noteTuple:          {kind: FixBracket, text: "read a tuple (...) as an array"},
	noteWhitespace: {kind: FixWhitespace, describe: func(b, _ string) string {
		ch, _ := utf8.DecodeRuneInString(b)
		return fmt.Sprintf("dropped the space character %U", ch)
	}},
	noteCall: {kind: FixWrapper, describe: func(b, _ string) string {
		return "removed the call " + clipWord(strings.TrimSuffix(b, "(")) + "(...) around a value"
	}},
	noteSemicolon:     {kind: FixWrapper, text: "removed a ';' after the value"},
	noteConcatenation: {kind: FixConcatenation, text: "joined strings written with +"},
	noteLeftOpen: {kind: FixTruncated, describe: func(_, a string) string {
		if a == "]" {
			return "closed an array left open"
		}
		return "closed an object left open"
	}},
	noteStringLeftOpen: {kind: FixTruncated, text: "closed a string left open"},
	noteBackslashAtEnd: {kind: FixTruncated, text: "dropped a backslash the text ends with"},
	noteEscapeAtEnd:    {kind: FixTruncated, text: "dropped an escape the text ends inside"},
}

func replaced(b, a string) string { return "replaced " + b + " with " + a }

// A fixRecord is a fix as the repairer keeps it while it reads, in two
// 64-bit words and no pointers, so that recording one is a store of two
// words. They are int64, not int: on a 32-bit platform an int would
// overflow once the fixes wrote 128 bytes or the offset passed 8 MiB.
// The text it replaced is the input's, at its offset; the text it wrote
// is in the repairer's written buffer, which holds what every fix
// recorded wrote, in order: it runs from its afterAt to the next record's
// afterAt (or the buffer's end).
type fixRecord struct {
	offsetNote  int64 // offset<<8 | note
	afterBefore int64 // afterAt<<beforeBits | before, or | longBefore (see fixLog.long)
}

// beforeBits is how many bits of a fixRecord hold the length of the text
// it replaced; a longer one is kept aside (see fixLog.long).
const (
	beforeBits = 24
	longBefore = 1<<beforeBits - 1
)

func (rec *fixRecord) offset() int  { return int(rec.offsetNote >> 8) }
func (rec *fixRecord) note() note   { return note(rec.offsetNote & 0xff) }
func (rec *fixRecord) afterAt() int { return int(rec.afterBefore >> beforeBits) }

// A fixLog is the list of fixRecords of one reading. It keeps them in
// chunks that never move, growing from small ones to chunks of
// maxFixChunk: a reply may need a fix every few bytes, and a list grown
// by copying would allocate several times its size. Its zero value is
// empty; it keeps its chunks when truncated.
type fixLog struct {
	chunks [][]fixRecord
	n      int
	// The next record goes to cur[j], cur being the chunk [place] puts
	// it in, when j < len(cur) (see [fixLog.push]).
	cur []fixRecord
	j   int
	// long holds, by index, the lengths of the texts replaced that do
	// not fit in a record (a comment or a reply of 16 MiB or more).
	long map[int]int
}

const (
	firstFixChunk = 32   // records in the first chunk; each next one is twice as large,
	maxFixChunk   = 1024 // up to this many
	// smallChunks is how many records the chunks smaller than
	// maxFixChunk hold: 32 + 64 + ... + 512.
	smallChunks = maxFixChunk - firstFixChunk
)

// bytes returns the bytes the log's chunks hold.
func (l *fixLog) bytes() int {
	n := bytesOf(l.chunks)
	for _, c := range l.chunks {
		n += bytesOf(c)
	}
	return n
}

// len returns how many records the log holds.
func (l *fixLog) len() int { return l.n }

// place returns the chunk and the index in it of the i-th record.
func place(i int) (chunk, j int) {
	if i < smallChunks {
		chunk = bits.Len(uint(i/firstFixChunk+1)) - 1
		return chunk, i - firstFixChunk*(1<<chunk-1)
	}
	i -= smallChunks
	return bits.Len(maxFixChunk/firstFixChunk) - 1 + i/maxFixChunk, i % maxFixChunk
}

// at returns the i-th record.
func (l *fixLog) at(i int) *fixRecord {
	c, j := place(i)
	return &l.chunks[c][j]
}

// push appends the record of a fix of note n at offset that replaced
// before bytes and wrote the written buffer's text from afterAt.
func (l *fixLog) push(n note, offset, before, afterAt int) {
	if l.j >= len(l.cur) || before >= longBefore {
		l.pushAt(n, offset, before, afterAt)
		return
	}
	l.cur[l.j] = fixRecord{offsetNote: int64(offset)<<8 | int64(n), afterBefore: int64(afterAt)<<beforeBits | int64(before)}
	l.j++
	l.n++
}

// pushAt is [fixLog.push] for a record that goes first in its chunk,
// which may be new, or that replaced too long a text for it.
func (l *fixLog) pushAt(n note, offset, before, afterAt int) {
	c, j := place(l.n)
	if c == len(l.chunks) {
		size := maxFixChunk
		if l.n < smallChunks {
			size = firstFixChunk << c
		}
		l.chunks = append(l.chunks, make([]fixRecord, size))
	}
	b := before
	if before >= longBefore {
		if l.long == nil {
			l.long = make(map[int]int)
		}
		l.long[l.n] = before
		b = longBefore
	}
	l.chunks[c][j] = fixRecord{offsetNote: int64(offset)<<8 | int64(n), afterBefore: int64(afterAt)<<beforeBits | int64(b)}
	l.cur, l.j = l.chunks[c], j+1
	l.n++
}

// before returns the length of the text the i-th fix replaced.
func (l *fixLog) before(i int) int { return l.beforeOf(l.at(i), i) }

// beforeOf returns the length of the text the fix of record rec, the
// i-th, replaced.
func (l *fixLog) beforeOf(rec *fixRecord, i int) int {
	b := int(rec.afterBefore & longBefore)
	if b == longBefore {
		return l.long[i]
	}
	return b
}

// chunk returns the records of the c-th chunk that the log holds, the
// first of which is the i-th record: the log's records are its chunks'
// in order, and the last chunk holds the records up to the log's length.
func (l *fixLog) chunk(c, i int) []fixRecord {
	return l.chunks[c][:min(len(l.chunks[c]), l.n-i)]
}

// truncate forgets the records after the first n.
func (l *fixLog) truncate(n int) {
	l.n = min(l.n, n)
	c, j := place(l.n)
	l.cur, l.j = nil, j
	if c < len(l.chunks) {
		l.cur = l.chunks[c]
	}
}

// fix records a change at offset: the input's text before, which starts
// there, was written as after.
func (r *repairer) fix(n note, offset int, before, after string) {
	r.record(n, offset, len(before))
	if cap(r.written)-len(r.written) < len(after) {
		r.written = r.roomToWrite(len(after))
	}
	// In place: storing only the length, with no barrier of the collector;
	// most fixes write one byte, stored without a call to copy it.
	if len(after) == 1 {
		r.written = append(r.written, after[0])
	} else {
		r.written = append(r.written, after...)
	}
}

// fixQuoted records a change at offset, as [repairer.fix] does, that
// wrote s as a JSON string.
func (r *repairer) fixQuoted(n note, offset int, before, s string) {
	r.record(n, offset, len(before))
	if cap(r.written)-len(r.written) < len(s)+2 {
		r.written = r.roomToWrite(len(s) + 2)
	}
	appendQuotedInPlace(&r.written, s)
}

// record records a fix of note n at offset that replaced before bytes of
// the input with what is appended to r.written next.
func (r *repairer) record(n note, offset, before int) {
	r.fixes.push(n, offset, before, len(r.written))
}

// room returns b with room for n more bytes, doubling it when it grows,
// rather than by the quarter append adds to a long slice: the texts of
// the fixes of a long reply are written into one buffer, a few bytes at a
// time, and the copies would outweigh it.
func room(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		b = slices.Grow(b, max(n, len(b)))
	}
	return b
}

// roomToWrite returns the written buffer with room for n more bytes:
// [room]'s while it is short, then room for what the rest of the text
// will write at the rate so far (see [repairer.projected]), so that the
// steps of a long reply add up to little more than the buffer.
func (r *repairer) roomToWrite(n int) []byte {
	if len(r.written) < roomyFrom {
		return room(r.written, n)
	}
	return slices.Grow(r.written, max(n, r.projected(len(r.written))-len(r.written)))
}

// dropFixes forgets the fixes recorded after the first n.
func (r *repairer) dropFixes(n int) {
	if n < r.fixes.len() {
		r.written = r.written[:r.fixes.at(n).afterAt()]
		r.fixes.truncate(n)
	}
}

// fixKind returns the kind of the fix recorded i-th.
func (r *repairer) fixKind(i int) FixKind { return notes[r.fixes.at(i).note()].kind }

// fixList returns the fixes recorded, in input order, for a candidate to
// own.
func (r *repairer) fixList() []Fix {
	count := r.fixes.len()
	if count == 0 {
		return nil
	}
	// One string holds what every fix wrote and the texts of more than a
	// byte that they replaced, so that the fixes share one allocation and
	// do not keep the input alive; a text of one byte is [byteTexts]',
	// and when every text is one byte or none, there is no string. The
	// records are read chunk by chunk, in order (see [fixLog.chunk]).
	befores, longAfter := 0, false
	for c, i := 0, 0; i < count; c++ {
		chunk := r.fixes.chunk(c, i)
		for j := range chunk {
			if before := r.fixes.beforeOf(&chunk[j], i+j); before > 1 {
				befores += before
			}
			longAfter = longAfter || r.afterEnd(chunk, c, i, j)-chunk[j].afterAt() > 1
		}
		i += len(chunk)
	}
	var texts string
	if befores > 0 || longAfter {
		var b strings.Builder
		b.Grow(len(r.written) + befores)
		b.Write(r.written)
		for c, i := 0, 0; i < count; c++ {
			chunk := r.fixes.chunk(c, i)
			for j := range chunk {
				if before := r.fixes.beforeOf(&chunk[j], i+j); before > 1 {
					off := chunk[j].offset()
					b.WriteString(r.text[off : off+before])
				}
			}
			i += len(chunk)
		}
		texts = b.String()
	}
	list := make([]Fix, count)
	var details detailCache
	at := len(r.written)
	sorted := true
	prev := -1 // the offset of the fix before
	for c, i := 0, 0; i < count; c++ {
		chunk := r.fixes.chunk(c, i)
		for j := range chunk {
			rec := &chunk[j]
			n := &notes[rec.note()]
			afterAt, afterEnd := rec.afterAt(), r.afterEnd(chunk, c, i, j)
			// Field by field: the list is new and zero, and a whole Fix
			// stored at once is copied with the collector's barrier on
			// every word. An empty text is left as it is.
			f := &list[i+j]
			f.Kind = n.kind
			f.Offset = rec.offset()
			switch before := r.fixes.beforeOf(rec, i+j); {
			case before == 1:
				f.Before = byteText(r.text[f.Offset])
			case before > 1:
				f.Before = texts[at : at+before]
				at += before
			}
			switch {
			case afterEnd-afterAt == 1:
				f.After = byteText(r.written[afterAt])
			case afterEnd-afterAt > 1:
				f.After = texts[afterAt:afterEnd]
			}
			if n.describe != nil {
				f.Detail = details.describe(rec.note(), f.Before, f.After)
			} else {
				f.Detail = n.text
			}
			sorted = sorted && prev <= f.Offset
			prev = f.Offset
		}
		i += len(chunk)
	}
	// A comma is judged when the bracket after it is read: put its fix back
	// in input order.
	if !sorted {
		slices.SortStableFunc(list, func(a, b Fix) int { return cmp.Compare(a.Offset, b.Offset) })
	}
	return list
}

// afterEnd returns the end, in the written buffer, of the text the fix
// of chunk[j] wrote, chunk being the c-th chunk of the log, whose first
// record is the i-th: the text ends where the next record's starts.
func (r *repairer) afterEnd(chunk []fixRecord, c, i, j int) int {
	switch {
	case j+1 < len(chunk):
		return chunk[j+1].afterAt()
	case i+j+1 < r.fixes.len():
		return r.fixes.chunks[c+1][0].afterAt()
	}
	return len(r.written)
}

// byteTexts holds every byte, in order: the text of a fix that is one
// byte, c, is byteTexts[c:c+1] (see [byteText]), which a list of fixes
// need not allocate nor the collector mark.
const byteTexts = "" +
	"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f" +
	"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f" +
	"\x20\x21\x22\x23\x24\x25\x26\x27\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f" +
	"\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f" +
	"\x40\x41\x42\x43\x44\x45\x46\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f" +
	"\x50\x51\x52\x53\x54\x55\x56\x57\x58\x59\x5a\x5b\x5c\x5d\x5e\x5f" +
	"\x60\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f" +
	"\x70\x71\x72\x73\x74\x75\x76\x77\x78\x79\x7a\x7b\x7c\x7d\x7e\x7f" +
	"\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f" +
	"\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f" +
	"\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\xac\xad\xae\xaf" +
	"\xb0\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf" +
	"\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf" +
	"\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf" +
	"\xe0\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xea\xeb\xec\xed\xee\xef" +
	"\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff"

// byteText returns the text of one byte, c.
func byteText(c byte) string { return byteTexts[c : int(c)+1] }

// A detailCache keeps the details last written for one list of fixes, so
// that fixes alike (every None of a reply replaced with null) share one
// string instead of each allocating its own. It holds the last
// recentDetails of them, which a reply repeating one shape of value
// cycles through; its zero value is empty.
type detailCache struct {
	recent [recentDetails]detail
	next   int // the entry to replace next
}

// A detail is a detail written and what it depends on.
type detail struct {
	n             note
	before, after string
	text          string
}

// recentDetails is how many details a detailCache keeps.
const recentDetails = 16

// describe returns the detail of a fix of note n that wrote after in place
// of before.
func (c *detailCache) describe(n note, before, after string) string {
	// Newest first: a reply repeating a shape of k such fixes finds each
	// k entries back.
	for k := 1; k <= recentDetails; k++ {
		d := &c.recent[(c.next-k+recentDetails)%recentDetails]
		if d.text != "" && d.n == n && d.before == before && d.after == after {
			return d.text
		}
	}
	text := notes[n].describe(before, after)
	c.recent[c.next] = detail{n, before, after, text}
	c.next = (c.next + 1) % recentDetails
	return text
}

// literalNote returns the note for a literal of kind, as [literal] gives it.
func literalNote(kind FixKind) note {
	if kind == FixNonFinite {
		return noteNonFinite
	}
	return notePythonLiteral
}
