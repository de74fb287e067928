package tool

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Run runs argv in dir and returns its standard output; a failure carries
// the command and its standard error (cut to 2000 bytes), or the
// context's error when it ended the command.
func Run(ctx context.Context, dir string, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("%s: %w\n%s", strings.Join(argv, " "), err, msg)
	}
	return out.Bytes(), nil
}
