// SPDX-License-Identifier: GPL-2.0

// Command varlink-noop is the userspace varlink server of the benchmark:
// Debian's Go varlink library (golang-github-varlink-go-dev) serving
// org.kernel.varlink.test.Ping, a no-op method with the same name, call
// and reply as the kernel's, plus the library's org.varlink.service.
//
// Usage: varlink-noop unix:@ADDRESS
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/varlink/go/varlink"
)

const testIDL = `# The benchmark's twin of the kernel's test interface: Ping only.
interface org.kernel.varlink.test

# Replies at once, with no parameters.
method Ping() -> ()
`

type testInterface struct{}

func (testInterface) VarlinkGetName() string        { return "org.kernel.varlink.test" }
func (testInterface) VarlinkGetDescription() string { return testIDL }

func (testInterface) VarlinkDispatch(ctx context.Context, c varlink.Call, method string) error {
	if method == "Ping" {
		return c.Reply(ctx, struct{}{})
	}
	return c.ReplyMethodNotFound(ctx, method)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: varlink-noop unix:@ADDRESS")
		os.Exit(2)
	}
	s, err := varlink.NewService("kvarlink", "varlink-noop", "1",
		"https://varlink.org")
	if err == nil {
		err = s.RegisterInterface(testInterface{})
	}
	if err == nil {
		err = s.Listen(context.Background(), os.Args[1], 0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "varlink-noop:", err)
		os.Exit(1)
	}
}
