//go:build !race

package validators

const raceBuild = false
