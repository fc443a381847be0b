// Package choose chooses the model an example runs against: a real one
// through a provider adapter when the environment configures it, else the
// example's own scripted provider, so that every example runs offline.
// [Model] uses the adapters of the root module ([Compatible]:
// provider/openaicompat, for OpenAI and the OpenAI-compatible endpoints of
// Anthropic and Gemini, and provider/ollama), so an example built on it
// compiles no SDK; an example that shows the SDK adapters gives
// [Table.Model] a Table of its own.
//
// The kinds, in [Kinds] order, and the environment variables each reads:
//
//   - openai: OPENAI_API_KEY, or OPENAI_BASE_URL for a local
//     OpenAI-compatible server (vLLM, llama.cpp, Ollama's /v1);
//     AGENTIO_OPENAI_MODEL picks the model (gpt-4.1-mini by default, and
//     required with OPENAI_BASE_URL).
//   - anthropic: ANTHROPIC_API_KEY; AGENTIO_ANTHROPIC_MODEL picks the model
//     (claude-haiku-4-5 by default); ANTHROPIC_BASE_URL sends it elsewhere.
//   - gemini: GEMINI_API_KEY (or GOOGLE_API_KEY); AGENTIO_GEMINI_MODEL picks
//     the model (gemini-2.5-flash by default); GOOGLE_GEMINI_BASE_URL sends
//     it to a proxy.
//   - ollama: OLLAMA_HOST names the server (Ollama's native API);
//     AGENTIO_OLLAMA_MODEL picks a model it has pulled (qwen3 by default).
//
// An example reads its -provider flag and calls [Model]:
//
//	kind := flag.String("provider", "openai", "the model provider: "+strings.Join(choose.Kinds, ", "))
//	flag.Parse()
//	p, name, err := choose.Model(*kind, os.Getenv, scripted)
package choose
