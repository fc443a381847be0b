package jsonraw_test

import (
	"errors"
	"fmt"

	"github.com/agentio/agentio/internal/jsonraw"
)

func ExampleMembers() {
	members, err := jsonraw.Members([]byte(`{"b": 1, "a": [true], "b": 2}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range members {
		fmt.Printf("%s = %s\n", m.Key, m.Value)
	}
	_, err = jsonraw.Members([]byte(`[1]`))
	fmt.Println(errors.Is(err, jsonraw.ErrNotObject))
	// Output:
	// b = 1
	// a = [true]
	// b = 2
	// true
}

func ExampleEncode() {
	members, _ := jsonraw.Members([]byte(`{"z": 1, "$defs": {}, "a": 2}`))
	kept := members[:0]
	for _, m := range members {
		if m.Key != "$defs" {
			kept = append(kept, m)
		}
	}
	fmt.Println(string(jsonraw.Encode(kept)))
	// Output: {"z":1,"a":2}
}

func ExampleAppendString() {
	fmt.Println(string(jsonraw.AppendString([]byte("key: "), "<b>\"bold\"</b>\n")))
	// Output: key: "<b>\"bold\"</b>\n"
}

func ExampleUnquote() {
	fmt.Println(jsonraw.Unquote([]byte(`"caf\u00e9 \ud83d\ude00"`)))
	// Output: café 😀
}
