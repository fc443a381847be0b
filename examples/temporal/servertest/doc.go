// Package servertest runs the workflow of package durable (the example in
// the parent directory) on a real Temporal server, started in process with
// the server's own go.temporal.io/server/temporaltest, against the scripted
// model of provider/providertest: a re-ask, a worker that dies between two
// model calls, a call retried after a provider error, a replay of the
// recorded history, and a cancelled run.
//
// It is a module of its own so that the Temporal server, a large
// dependency, reaches neither the library nor the example. Its tests take
// a few seconds each: every one starts its own server.
package servertest
