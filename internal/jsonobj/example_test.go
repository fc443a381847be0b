package jsonobj_test

import (
	"errors"
	"fmt"

	"github.com/agentio/agentio/internal/jsonobj"
)

func ExampleMembers() {
	members, err := jsonobj.Members([]byte(`{"b": 1, "a": [true], "b": 2}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range members {
		fmt.Printf("%s = %s\n", m.Key, m.Value)
	}
	_, err = jsonobj.Members([]byte(`[1]`))
	fmt.Println(errors.Is(err, jsonobj.ErrNotObject))
	// Output:
	// b = 1
	// a = [true]
	// b = 2
	// true
}

func ExampleEncode() {
	members, _ := jsonobj.Members([]byte(`{"z": 1, "$defs": {}, "a": 2}`))
	kept := members[:0]
	for _, m := range members {
		if m.Key != "$defs" {
			kept = append(kept, m)
		}
	}
	fmt.Println(string(jsonobj.Encode(kept)))
	// Output: {"z":1,"a":2}
}

func ExampleAppendString() {
	fmt.Println(string(jsonobj.AppendString([]byte("key: "), "<b>\"bold\"</b>\n")))
	// Output: key: "<b>\"bold\"</b>\n"
}

func ExampleUnquote() {
	fmt.Println(jsonobj.Unquote([]byte(`"caf\u00e9 \ud83d\ude00"`)))
	// Output: café 😀
}
