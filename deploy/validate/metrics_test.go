package validate

// Every metric the Grafana dashboard and the Prometheus rules name must exist in a real scrape of the
// server (with its labels), and the rules must pass promtool's checks and unit tests.

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
	"sigs.k8s.io/yaml"
)

const (
	dashboardFile = "../grafana/cipherd-dashboard.json"
	rulesFile     = "../prometheus/cipherd-rules.yaml"
	rulesTestFile = "../prometheus/cipherd-rules.test.yaml"
)

// scrapeLabels are added by Prometheus at scrape time, not by the server.
var scrapeLabels = map[string]bool{"job": true, "instance": true, "namespace": true, "pod": true}

// grafanaVars are replaced by Grafana before a query reaches Prometheus.
var grafanaVars = strings.NewReplacer("$__rate_interval", "5m", "$job", ".*")

// use is one metric a query names, with the labels it matches on or groups by.
type use struct {
	metric string
	labels []string
	where  string
}

func TestDashboardAndRulesUseOnlyScrapedSeries(t *testing.T) {
	srv := startServer(t)
	srv.traffic(t)
	srv.forceGC(t)
	series := scrapedSeries(t, srv.scrape(t))

	var uses []use
	for where, expr := range dashboardQueries(t) {
		uses = append(uses, queryUses(t, where, grafanaVars.Replace(expr))...)
	}
	for where, expr := range ruleQueries(t) {
		uses = append(uses, queryUses(t, where, expr)...)
	}
	if len(uses) < 30 {
		t.Fatalf("found only %d metric uses in the dashboard and rules", len(uses))
	}
	names := map[string]bool{}
	for _, u := range uses {
		names[u.metric] = true
		labels, ok := series[u.metric]
		if !ok {
			t.Errorf("%s: %s is not in the server's /metrics", u.where, u.metric)
			continue
		}
		for _, l := range u.labels {
			if !labels[l] && !scrapeLabels[l] {
				t.Errorf("%s: %s has no label %q (it has %v)", u.where, u.metric, l, keys(labels))
			}
		}
	}
	sorted := keys(names)
	t.Logf("%d metric uses, %d distinct series names, all in a real scrape: %s", len(uses), len(sorted), strings.Join(sorted, " "))
}

// scrapedSeries maps every sample name in the scrape (summaries as _count and _sum, histograms also as
// _bucket with its le) to its label names.
func scrapedSeries(t *testing.T, text string) map[string]map[string]bool {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("parsing /metrics: %v", err)
	}
	out := map[string]map[string]bool{}
	add := func(name string, m *dto.Metric) {
		if out[name] == nil {
			out[name] = map[string]bool{}
		}
		for _, l := range m.GetLabel() {
			out[name][l.GetName()] = true
		}
	}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			switch f.GetType() {
			case dto.MetricType_SUMMARY:
				add(name+"_count", m)
				add(name+"_sum", m)
			case dto.MetricType_HISTOGRAM:
				add(name+"_count", m)
				add(name+"_sum", m)
				add(name+"_bucket", m)
				// The parser keeps each bucket's bound apart from the labels; in PromQL it is the label le.
				if len(m.GetHistogram().GetBucket()) > 0 {
					out[name+"_bucket"]["le"] = true
				}
			default:
				add(name, m)
			}
		}
	}
	return out
}

func dashboardQueries(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Name  string `json:"name"`
				Query any    `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	out := map[string]string{}
	for _, p := range dash.Panels {
		for i, tg := range p.Targets {
			out["dashboard panel "+p.Title+" #"+string(rune('A'+i))] = tg.Expr
		}
	}
	labelValues := regexp.MustCompile(`^label_values\((.+),\s*\w+\)$`)
	for _, v := range dash.Templating.List {
		if q, ok := v.Query.(string); ok {
			if m := labelValues.FindStringSubmatch(q); m != nil {
				out["dashboard variable "+v.Name] = m[1]
			}
		}
	}
	return out
}

func ruleQueries(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert string `json:"alert"`
				Expr  string `json:"expr"`
			} `json:"rules"`
		} `json:"groups"`
	}
	if err := yaml.Unmarshal(raw, &rules); err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	out := map[string]string{}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			out["alert "+r.Alert] = r.Expr
		}
	}
	return out
}

// queryUses parses a PromQL query and lists each metric it selects, with the labels its matchers and
// the enclosing aggregations' "by" clauses need that metric to have.
func queryUses(t *testing.T, where, query string) []use {
	t.Helper()
	expr, err := parser.NewParser(parser.Options{}).ParseExpr(query)
	if err != nil {
		t.Errorf("%s: not PromQL: %v", where, err)
		return nil
	}
	var out []use
	parser.Inspect(expr, func(node parser.Node, path []parser.Node) error {
		vs, ok := node.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		u := use{metric: vs.Name, where: where}
		for _, m := range vs.LabelMatchers {
			if m.Name != model.MetricNameLabel {
				u.labels = append(u.labels, m.Name)
			}
		}
		for _, p := range path {
			if agg, ok := p.(*parser.AggregateExpr); ok && !agg.Without {
				u.labels = append(u.labels, agg.Grouping...)
			}
		}
		out = append(out, u)
		return nil
	})
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// promtool is built once per version by install-promtool (cached under ~/.cache/cipherd/bin).
func promtool(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("./install-promtool").Output()
	if err != nil {
		t.Fatalf("install-promtool: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestPromtoolChecksAndTestsTheRules(t *testing.T) {
	bin := promtool(t)
	for _, args := range [][]string{{"check", "rules", rulesFile}, {"test", "rules", rulesTestFile}} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "SUCCESS") {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("promtool %s: %s", strings.Join(args, " "), strings.Join(strings.Fields(string(out)), " "))
	}
}
