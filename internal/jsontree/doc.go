// Package jsontree is a JSON document as a tree that keeps the order of
// object members, so that what is read from a schema document (its
// locations, its property order, a dialect's rewrite of it) follows its
// author. Package schema compiles schemas from it and package
// schema/dialect rewrites them with it.
package jsontree
