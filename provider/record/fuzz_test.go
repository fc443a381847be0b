package record

import (
	"bytes"
	"errors"
	"testing"

	"github.com/agentio/agentio/provider"
)

// FuzzStore feeds the store-file reader any bytes: it never panics, a file
// it refuses is a *FileError, and a file it accepts is written back and
// read again to the same recording.
func FuzzStore(f *testing.F) {
	tree, err := requestTree(&provider.Request{System: "s", Messages: []provider.Message{provider.UserMessage("hi")}, MaxTokens: 3})
	if err != nil {
		f.Fatal(err)
	}
	key, err := keyOf("m", tree)
	if err != nil {
		f.Fatal(err)
	}
	seeds := []*file{
		{Version: fileVersion, Key: key, Model: "m", Request: tree, Response: &wireResponse{Text: "ok", StopReason: provider.StopEnd}},
		{Version: fileVersion, Key: key, Model: "m", Request: tree, Stream: true, Chunks: []wireChunk{{Text: "o"}, {ToolCall: &provider.ToolCallDelta{Index: 1, Arguments: "{"}}}, Stopped: true},
		{Version: fileVersion, Key: key, Model: "m", Request: tree, Error: toWireError(&provider.Error{Kind: provider.ErrAuth, StatusCode: 401})},
	}
	for _, s := range seeds {
		data, err := encodeIndented(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version": 1, "key": "", "request": []}`))
	f.Add([]byte(`{"version": 1} {}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeFile("f.json", data)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || got != nil {
				t.Fatalf("error %T %v with %v, want a *FileError alone", err, err, got)
			}
			return
		}
		out, err := encodeIndented(got)
		if err != nil {
			t.Fatalf("accepted file does not encode: %v", err)
		}
		again, err := decodeFile("f.json", out)
		if err != nil {
			t.Fatalf("accepted file, written back, is refused: %v\n%s", err, out)
		}
		out2, err := encodeIndented(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("second round trip differs:\n%s\n%s", out, out2)
		}
		// Replaying what was accepted must not panic either.
		if _, err := again.generate(); err == nil && !again.Stream && again.Response == nil {
			t.Fatal("a recording with neither reply nor error replayed as a success")
		}
	})
}
