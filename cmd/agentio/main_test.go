package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider/wiretest"
)

// binary is the agentio command built for the tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentio-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "agentio")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// agentio runs the built binary with stdin and returns its stdout, stderr
// and exit status.
func agentio(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return agentioEnv(t, nil, stdin, args...)
}

// agentioEnv is agentio with variables ("NAME=value") added to the
// environment.
func agentioEnv(t *testing.T, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

func TestLintClean(t *testing.T) {
	out, errs, code := agentio(t, "", "lint", "testdata/clean")
	assert.Equal(t, 0, code, errs)
	assert.Empty(t, out)
	assert.Contains(t, errs, "2 files checked, 0 findings")
}

func TestLintFindings(t *testing.T) {
	out, _, code := agentio(t, "", "lint", "testdata/findings")
	assert.Equal(t, 1, code)
	for _, want := range []string{
		"testdata/findings/bad-type.schema.json:4:26: error: type value 'strin' is not a JSON Schema type",
		"did you mean 'string'?",
		"testdata/findings/typo.schema.json:4:46: warning: unknown keyword 'minLenght' is ignored (did you mean 'minLength'?)",
		"testdata/findings/agents/broken/agent.json:2:11: error: name:",
		"testdata/findings/agents/broken/agent.json:6:47: error: output_schema: minimum must be a number",
		"testdata/findings/agents/broken/agent.json:9:52: error: default_output_schema_options.max_retries: must be a non-negative integer",
		`testdata/findings/agents/misplaced/agent.json:3:19: warning: unknown field "system_promt" is ignored (did you mean "system_prompt"?)`,
		`testdata/findings/agents/misplaced/agent.json:4:22: warning: unknown field "validation_mode" is ignored (did you mean "default_output_schema_options.validation_mode"?`,
		`testdata/findings/agents/misplaced/agent.json:5:12: warning: unknown field "owner" is ignored` + "\n",
	} {
		assert.Contains(t, out, want)
	}
}

func TestLintCountsInWords(t *testing.T) {
	_, errs, code := agentio(t, "", "lint", "testdata/clean/review.schema.json")
	assert.Equal(t, 0, code)
	assert.Contains(t, errs, "1 file checked, 0 findings")
	_, errs, _ = agentio(t, "", "lint", "testdata/findings/agents/misplaced")
	assert.Contains(t, errs, "1 file checked, 3 findings")
}

func TestLintFormats(t *testing.T) {
	out, _, code := agentio(t, "", "lint", "-format", "github", "testdata/findings")
	assert.Equal(t, 1, code)
	annotation := regexp.MustCompile(`^::(error|warning) file=[^,]+,line=\d+,col=\d+::.+$`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.NotEmpty(t, lines)
	for _, l := range lines {
		assert.Regexp(t, annotation, l)
	}

	out, _, code = agentio(t, "", "lint", "-format", "json", "testdata/findings/bad-type.schema.json")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `"path": "$.properties.severity.type"`)
	assert.Contains(t, out, `"pointer": "/properties/severity/type"`)
	assert.Contains(t, out, `"line": 4`)

	out, _, code = agentio(t, "", "lint", "-format", "json", "testdata/clean")
	assert.Equal(t, 0, code)
	assert.Equal(t, "[]\n", out)
}

func TestLintDialect(t *testing.T) {
	out, _, code := agentio(t, "", "lint", "-dialect", "openai", "testdata/clean/review.schema.json")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "openai dialect")
	_, errs, code := agentio(t, "", "lint", "-dialect", "nope", "testdata/clean")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "unknown")
}

func TestLintRegistry(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ok.json"), []byte(`{"name":"ok","schema":{"type":"object"}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.json"), []byte("{\"name\":\"bad\",\n\"schema\":{\"type\":\"strin\"}}"), 0o644))
	out, _, code := agentio(t, "", "lint", "-registry", dir, "testdata/clean")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "bad.json:2:18: error: type value 'strin' is not a JSON Schema type")
}

func TestLintUsage(t *testing.T) {
	_, errs, code := agentio(t, "", "lint", "-format", "xml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "use text, json or github")
	_, errs, code = agentio(t, "", "lint", "testdata/missing")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "testdata/missing")
	_, _, code = agentio(t, "", "frobnicate")
	assert.Equal(t, 2, code)
	_, _, code = agentio(t, "")
	assert.Equal(t, 2, code)
	out, _, code := agentio(t, "", "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "agentio lint")
}

func TestFmt(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/unformatted/agent.json")
	require.NoError(t, err)
	file := filepath.Join(dir, "agent.json")
	require.NoError(t, os.WriteFile(file, src, 0o644))

	out, _, code := agentio(t, "", "fmt", "-d", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "--- "+file)
	assert.Contains(t, out, "+  \"description\": \"out of order\",")
	assert.Contains(t, out, "-{\"name\":\"fmt-me\"")

	_, _, code = agentio(t, "", "fmt", "-w", dir)
	assert.Equal(t, 0, code)
	formatted, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"name\": \"fmt-me\",\n  \"description\": \"out of order\",\n  \"output_schema\": {\n    \"type\": \"object\",\n    \"properties\": {\n      \"a\": {\n        \"type\": \"string\"\n      }\n    }\n  }\n}\n", string(formatted))

	_, _, code = agentio(t, "", "fmt", "-w", dir)
	assert.Equal(t, 0, code)
	again, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, formatted, again, "fmt -w is idempotent")
	_, _, code = agentio(t, "", "fmt", dir)
	assert.Equal(t, 0, code, "a formatted tree passes")

	out, _, code = agentio(t, "", "fmt", "-l", "testdata/clean")
	assert.Equal(t, 0, code, out)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.schema.json"), []byte("{\n\"a\": }"), 0o644))
	_, errs, code := agentio(t, "", "fmt", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "bad.schema.json: 2:7: not valid JSON")
}

func TestExtract(t *testing.T) {
	out, _, code := agentio(t, "", "extract", "testdata/replies/reply.txt")
	assert.Equal(t, 0, code)
	assert.Equal(t, "{\"summary\": \"Disk full\", \"severity\": \"High\"}\n", out)

	out, _, code = agentio(t, "noise {\"a\": 1} and [2]", "extract", "-all")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "#1 scan bytes 6-14\n{\"a\": 1}")
	assert.Contains(t, out, "#2 scan bytes 19-22\n[2]")

	_, errs, code := agentio(t, "no json here", "extract")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "<stdin>: extract: no JSON value found")

	out, errs, code = agentio(t, "{'a': 1,}", "extract", "-repair")
	assert.Equal(t, 0, code)
	assert.Equal(t, "{\"a\":1}\n", out)
	assert.Contains(t, errs, "fix:")
}

func TestCheck(t *testing.T) {
	out, errs, code := agentio(t, "", "check", "-schema", "testdata/replies/summary.schema.json", "testdata/replies/reply.txt")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "invalid")
	assert.Contains(t, out, "$.severity: 'High' is not one of ['low', 'high']")

	out, _, code = agentio(t, "", "check", "-schema", "testdata/replies/summary.schema.json", "-reask", "testdata/replies/reply.txt")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "--- re-ask ---")
	assert.Contains(t, out, "'High' is not one of")

	out, errs, code = agentio(t, "", "check", "-schema", "testdata/replies/summary.schema.json", "-lenient", "testdata/replies/reply.txt")
	assert.Equal(t, 0, code, errs)
	assert.JSONEq(t, `{"summary":"Disk full","severity":"high"}`, out)
	assert.Contains(t, errs, "coerced: $.severity: enum_match")

	_, errs, code = agentio(t, "{}", "check")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "check needs -schema")
}

func TestRunScript(t *testing.T) {
	out, errs, code := agentio(t, "", "run", "-blueprint", "testdata/clean/agents/summarizer", "-prompt", "Summarise.",
		"-provider", "script", "-script", "testdata/replies/script.json")
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, `"result_data"`)
	assert.Contains(t, out, "db-2")
	assert.Contains(t, errs, "attempt 1: invalid")
	assert.Contains(t, errs, "attempt 2: valid")
	assert.NotContains(t, errs, "\r", "no progress line when stderr is not a terminal")

	_, errs, code = agentioEnv(t, []string{"OPENAI_API_KEY=", "OPENAI_BASE_URL="}, "", "run", "-blueprint", "testdata/clean/agents/summarizer", "-provider", "openai")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "needs OPENAI_API_KEY")

	_, errs, code = agentio(t, "", "run", "-blueprint", "testdata/clean/agents/summarizer", "-provider", "mistral")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "use openai, anthropic, gemini, ollama or script")
}

func TestRunStream(t *testing.T) {
	out, errs, code := agentio(t, "", "run", "-blueprint", "testdata/clean/agents/summarizer", "-prompt", "Summarise.",
		"-provider", "script", "-script", "testdata/replies/stream.json", "-stream")
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, `"Disk full on db-2"`)
	assert.Regexp(t, `attempt 1: invalid \([^)]*\), stopped early: 1 violations, first \$\.severity`, errs)
	assert.NotContains(t, errs, "attempt 1 partial", "the wrong severity is never shown")
	assert.NotContains(t, errs, "overnight", "the wrong reply is stopped before its summary")
	assert.Contains(t, errs, `attempt 2 partial: {"summary": "Disk full on db-2"}`)
	assert.Contains(t, errs, "attempt 2: valid")
}

// TestRunProviders runs the binary against a local stand-in of each
// family's OpenAI-compatible endpoint, found through the variables the
// SDKs read, and checks what it sent: the key, the path, the model, and
// the mode each family is run in.
func TestRunProviders(t *testing.T) {
	valid := `{\"summary\": \"Disk full on db-2\", \"severity\": \"high\"}`
	text := `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"` + valid + `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":10,"total_tokens":40}}`
	tool := `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"submit_result","arguments":"` +
		valid + `"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":30,"completion_tokens":10,"total_tokens":40}}`
	tests := []struct {
		provider string
		env      func(url string) []string
		reply    string
		path     string
		key      string
		model    string
		check    func(t *testing.T, body map[string]any)
	}{
		{
			provider: "openai",
			env:      func(url string) []string { return []string{"OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL=" + url + "/v1"} },
			reply:    text,
			path:     "/v1/chat/completions",
			key:      "Bearer sk-test",
			model:    "gpt-4.1-mini",
			check: func(t *testing.T, body map[string]any) {
				format := body["response_format"].(map[string]any)
				assert.Equal(t, "json_schema", format["type"], "native mode, strict schema")
				assert.Equal(t, true, format["json_schema"].(map[string]any)["strict"])
			},
		},
		{
			provider: "anthropic",
			env: func(url string) []string {
				return []string{"ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_BASE_URL=" + url}
			},
			reply: tool,
			path:  "/v1/chat/completions",
			key:   "Bearer sk-ant-test",
			model: "claude-haiku-4-5",
			check: func(t *testing.T, body map[string]any) {
				assert.NotContains(t, body, "response_format", "the endpoint ignores it: tool mode")
				assert.Equal(t, "submit_result", body["tool_choice"].(map[string]any)["function"].(map[string]any)["name"])
				assert.Equal(t, 4096.0, body["max_completion_tokens"])
			},
		},
		{
			provider: "gemini",
			env: func(url string) []string {
				return []string{"GEMINI_API_KEY=", "GOOGLE_API_KEY=g-test", "GOOGLE_GEMINI_BASE_URL=" + url}
			},
			reply: text,
			path:  "/v1beta/openai/chat/completions",
			key:   "Bearer g-test",
			model: "gemini-2.5-flash",
			check: func(t *testing.T, body map[string]any) {
				format := body["response_format"].(map[string]any)
				assert.Equal(t, "json_schema", format["type"])
				assert.NotContains(t, format["json_schema"], "strict", "Gemini's endpoint has no strict mode")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			s := wiretest.New(t, nil, wiretest.Reply{Body: tt.reply})
			out, errs, code := agentioEnv(t, tt.env(s.URL), "", "run", "-blueprint", "testdata/clean/agents/summarizer",
				"-prompt", "Summarise.", "-provider", tt.provider)
			require.Equal(t, 0, code, errs)
			assert.Contains(t, out, "db-2")
			assert.Contains(t, errs, "attempt 1: valid")
			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, tt.path, reqs[0].Path)
			assert.Equal(t, tt.key, reqs[0].Header.Get("Authorization"))
			body := reqs[0].JSON(t)
			assert.Equal(t, tt.model, body["model"])
			tt.check(t, body)
		})
	}

	_, errs, code := agentioEnv(t, []string{"GEMINI_API_KEY=", "GOOGLE_API_KEY="}, "", "run", "-blueprint", "testdata/clean/agents/summarizer", "-provider", "gemini")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "needs GEMINI_API_KEY or GOOGLE_API_KEY")
}
