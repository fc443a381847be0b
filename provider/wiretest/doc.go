// Package wiretest is a scripted HTTP server for the wire tests of
// provider adapters: it answers each request with the next scripted reply
// (whole, streamed in flushed parts, held until the client leaves, or cut
// off) and records every request, so a test checks both what an adapter
// sends and how it reads the answer. It is the HTTP side of the adapter
// test kit in package providertest.
package wiretest
