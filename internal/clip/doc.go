// Package clip shortens text for messages without splitting a character:
// every package that quotes a model's reply, a schema or a name in an error
// cuts it here, and adds its own marker.
package clip
