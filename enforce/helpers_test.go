package enforce_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// reviewSchema is the code-review output used across the tests: findings
// with a severity, a count per severity and a summary.
const reviewSchema = `{
  "type": "object",
  "required": ["findings", "counts", "summary"],
  "properties": {
    "findings": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["severity", "file", "line"],
        "properties": {
          "severity": {"type": "string", "enum": ["blocker", "major", "minor"]},
          "file": {"type": "string"},
          "line": {"type": "integer", "minimum": 1}
        }
      }
    },
    "counts": {
      "type": "object",
      "required": ["blocker", "major", "minor"],
      "properties": {
        "blocker": {"type": "integer", "minimum": 0},
        "major": {"type": "integer", "minimum": 0},
        "minor": {"type": "integer", "minimum": 0}
      }
    },
    "summary": {"type": "string"}
  }
}`

// validReview is valid against reviewSchema.
const validReview = `{"findings":[{"severity":"blocker","file":"a.go","line":3}],"counts":{"blocker":1,"major":0,"minor":0},"summary":"one blocker"}`

// invalidReview violates reviewSchema in three places.
const invalidReview = `{"findings":[{"severity":"critical","file":"a.go","line":0}],"counts":{"blocker":1,"major":0,"minor":0}}`

// invalidReviewPaths are the instance paths of invalidReview's violations.
var invalidReviewPaths = []string{"$.findings[0].severity", "$.findings[0].line", "$.summary"}

func parse(t testing.TB, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

// lastContent returns the content of the last message of r, which the tests
// expect to be a user or tool message.
func lastContent(r *provider.Request) string {
	return r.Messages[len(r.Messages)-1].Content
}

var ctx = context.Background()

func violation(path, msg string) schema.Violation { return schema.Violation{Path: path, Message: msg} }

func violations(path, msg string) []schema.Violation { return []schema.Violation{violation(path, msg)} }
