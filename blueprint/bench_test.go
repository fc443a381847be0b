package blueprint_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/provider/providertest"
)

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "agents", "pr-reviewer", "agent.json"))
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for range b.N {
		if _, err := blueprint.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateParameters(b *testing.B) {
	bp, err := blueprint.Load(filepath.Join("testdata", "agents", "parametric-agent"))
	require.NoError(b, err)
	params := map[string]any{"prompt": "Write.", "topic": "ML in healthcare", "format": "essay", "max_words": 300}
	b.ReportAllocs()
	for range b.N {
		if err := bp.ValidateParameters(params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRun(b *testing.B) {
	bp, err := blueprint.Load(filepath.Join("testdata", "agents", "security-scanner"))
	require.NoError(b, err)
	params := map[string]any{"prompt": "Scan."}
	b.ReportAllocs()
	for range b.N {
		p := providertest.New(providertest.Text(validScan))
		if _, err := blueprint.Run(context.Background(), bp, p, params, blueprint.RunSpec{}); err != nil {
			b.Fatal(err)
		}
	}
}
