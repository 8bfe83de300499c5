// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/metric_query.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <set>

#include <re2/re2.h>

#include "core/common/json_text.h"

namespace dra::sandbox {

namespace {

// A range vector: every matching series with its samples inside the range.
struct RangeValue
{
    std::vector<SeriesSamples> series;
    int64_t rangeMs = 0;
};

struct QueryError
{
    size_t at;
    std::string message;
};

struct Matcher
{
    std::string label, op, value;
    std::shared_ptr<RE2> regex;

    bool matches(const Labels &labels) const
    {
        const auto found = labels.find(label);
        const std::string actual = found == labels.end() ? std::string() : found->second;
        if (op == "=")
            return actual == value;
        if (op == "!=")
            return actual != value;
        const bool full = RE2::FullMatch(actual, *regex);
        return op == "=~" ? full : !full;
    }
};

double seriesIncrease(const SeriesSamples &series)
{
    double increase = 0;
    for (size_t i = 1; i < series.samples.size(); ++i) {
        const double before = series.samples[i - 1].second, after = series.samples[i].second;
        increase += after >= before ? after - before : after; // a reset starts again from zero
    }
    return increase;
}

Labels withoutName(Labels labels)
{
    labels.erase("__name__");
    return labels;
}

// Recursive descent over the query text, evaluating as it parses: the queries are small and
// have no variables, so there is no tree to keep.
class Evaluator
{
public:
    Evaluator(const std::string &text, const TrafficMetrics &metrics, int64_t atMs)
        : m_text(text)
        , m_metrics(metrics)
        , m_atMs(atMs)
    {
    }

    QueryValue run()
    {
        QueryValue value = expression();
        skipSpace();
        if (m_pos != m_text.size())
            fail("unexpected " + quoted(rest()) + " after the end of the expression");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string &message) const
    {
        throw QueryError { m_pos, message };
    }

    static std::string quoted(const std::string &text) { return '"' + text + '"'; }
    std::string rest() const { return m_text.substr(m_pos, 12); }

    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    bool take(std::string_view token)
    {
        skipSpace();
        if (m_text.compare(m_pos, token.size(), token) != 0)
            return false;
        m_pos += token.size();
        return true;
    }
    void expect(std::string_view token)
    {
        if (!take(token))
            fail("expected \"" + std::string(token) + "\", found "
                + (m_pos < m_text.size() ? quoted(rest()) : "the end"));
    }
    static bool identStart(char c)
    {
        return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
    }
    static bool identChar(char c)
    {
        return identStart(c) || std::isdigit(static_cast<unsigned char>(c));
    }
    std::string peekIdentifier()
    {
        skipSpace();
        size_t end = m_pos;
        if (end < m_text.size() && identStart(m_text[end])) {
            while (end < m_text.size() && identChar(m_text[end]))
                ++end;
        }
        return m_text.substr(m_pos, end - m_pos);
    }
    std::string identifier()
    {
        std::string name = peekIdentifier();
        if (name.empty())
            fail("expected a name, found " + (m_pos < m_text.size() ? quoted(rest()) : "the end"));
        m_pos += name.size();
        return name;
    }
    std::string stringLiteral()
    {
        skipSpace();
        if (m_pos >= m_text.size() || (m_text[m_pos] != '"' && m_text[m_pos] != '\''))
            fail("expected a quoted string");
        const char quote = m_text[m_pos++];
        std::string value;
        while (m_pos < m_text.size() && m_text[m_pos] != quote) {
            if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size())
                ++m_pos;
            value += m_text[m_pos++];
        }
        if (m_pos >= m_text.size())
            fail("unterminated string");
        ++m_pos;
        return value;
    }
    std::optional<double> number()
    {
        skipSpace();
        const char *begin = m_text.c_str() + m_pos;
        if (m_pos >= m_text.size()
            || !(std::isdigit(static_cast<unsigned char>(*begin)) || *begin == '.'))
            return std::nullopt;
        char *end = nullptr;
        const double value = std::strtod(begin, &end);
        m_pos += size_t(end - begin);
        return value;
    }
    int64_t durationMs()
    {
        skipSpace();
        // Past this a range means nothing for rollout metrics, and the sums below stay far
        // from int64 overflow.
        constexpr int64_t kLongestMs = 100 * 31'536'000'000LL;
        const auto tooLong = [this] { fail("a duration longer than 100 years"); };
        int64_t total = 0;
        bool any = false;
        while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
            int64_t amount = 0;
            while (
                m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
                amount = amount * 10 + (m_text[m_pos++] - '0');
                if (amount > kLongestMs)
                    tooLong();
            }
            static const std::vector<std::pair<std::string_view, int64_t>> units { { "ms", 1 },
                { "s", 1000 }, { "m", 60'000 }, { "h", 3'600'000 }, { "d", 86'400'000 },
                { "w", 604'800'000 }, { "y", 31'536'000'000 } };
            bool unit = false;
            for (const auto &[name, ms] : units) {
                if (m_text.compare(m_pos, name.size(), name) == 0) {
                    m_pos += name.size();
                    if (amount > (kLongestMs - total) / ms)
                        tooLong();
                    total += amount * ms;
                    unit = any = true;
                    break;
                }
            }
            if (!unit)
                fail("a duration needs a unit (ms, s, m, h, d, w, y)");
        }
        if (!any || total <= 0)
            fail("expected a duration such as 30s or 5m");
        return total;
    }

    // expression := term (('+' | '-') term)*
    QueryValue expression()
    {
        QueryValue value = term();
        while (true) {
            if (take("+"))
                value = binary(value, term(), '+');
            else if (take("-"))
                value = binary(value, term(), '-');
            else
                return value;
        }
    }
    // term := unary (('*' | '/') unary)*
    QueryValue term()
    {
        QueryValue value = unary();
        while (true) {
            if (take("*"))
                value = binary(value, unary(), '*');
            else if (take("/"))
                value = binary(value, unary(), '/');
            else
                return value;
        }
    }
    QueryValue unary()
    {
        if (take("-")) {
            QueryValue value = unary();
            if (value.scalar)
                value.scalarValue = -value.scalarValue;
            for (auto &element : value.vector) {
                element.value = -element.value;
                element.labels.erase("__name__");
            }
            return value;
        }
        return primary();
    }
    QueryValue primary()
    {
        if (take("(")) {
            QueryValue value = expression();
            expect(")");
            return value;
        }
        if (std::optional<double> literal = number())
            return QueryValue { true, *literal, {} };
        const size_t start = m_pos;
        const std::string name = peekIdentifier();
        static const std::set<std::string> aggregations { "sum", "avg", "min", "max", "count" };
        if (aggregations.contains(name)) {
            m_pos += name.size();
            return aggregation(name);
        }
        if (name == "rate" || name == "increase") {
            m_pos += name.size();
            expect("(");
            RangeValue range = rangeSelector();
            expect(")");
            return rateOf(range, name == "rate");
        }
        if (name == "histogram_quantile") {
            m_pos += name.size();
            expect("(");
            const QueryValue quantile = expression();
            if (!quantile.scalar)
                fail("histogram_quantile() takes a scalar quantile first");
            expect(",");
            const QueryValue buckets = expression();
            expect(")");
            return histogramQuantile(quantile.scalarValue, buckets);
        }
        if (name == "vector") {
            m_pos += name.size();
            expect("(");
            const QueryValue inner = expression();
            expect(")");
            if (!inner.scalar)
                fail("vector() takes a scalar");
            return QueryValue { false, 0, { { Labels {}, inner.scalarValue } } };
        }
        if (name.empty())
            fail("expected a number, a metric or a function, found "
                + (m_pos < m_text.size() ? quoted(rest()) : "the end"));
        QueryValue value;
        const std::vector<Matcher> matchers = selector();
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '[') {
            m_pos = start;
            fail("a range vector needs a function such as rate() around it");
        }
        for (const SeriesSamples &series : m_metrics.series()) {
            if (!selects(series, matchers) || series.samples.empty())
                continue;
            // The latest sample at or before the time, as Prometheus' lookback (5 minutes).
            const auto latest = std::find_if(series.samples.rbegin(), series.samples.rend(),
                [&](const auto &sample) { return sample.first <= m_atMs; });
            if (latest != series.samples.rend() && latest->first > m_atMs - 300'000)
                value.vector.push_back({ series.labels, latest->second });
        }
        return value;
    }

    // A metric name and its optional {label matchers}; the name is the __name__ matcher.
    std::vector<Matcher> selector()
    {
        std::vector<Matcher> matchers;
        const std::string name = identifier();
        matchers.push_back({ "__name__", "=", name, nullptr });
        if (take("{")) {
            // Matchers separated by commas, a trailing comma allowed.
            while (!take("}")) {
                Matcher matcher;
                matcher.label = identifier();
                for (const char *op : { "=~", "!~", "!=", "=" }) {
                    if (take(op)) {
                        matcher.op = op;
                        break;
                    }
                }
                if (matcher.op.empty())
                    fail("expected a label matcher (=, !=, =~, !~) after " + matcher.label);
                matcher.value = stringLiteral();
                if (matcher.op == "=~" || matcher.op == "!~") {
                    matcher.regex = std::make_shared<RE2>(matcher.value, RE2::Quiet);
                    if (!matcher.regex->ok())
                        fail("invalid regular expression " + quoted(matcher.value) + ": "
                            + matcher.regex->error());
                }
                matchers.push_back(std::move(matcher));
                if (!take(",")) {
                    expect("}");
                    break;
                }
            }
        }
        return matchers;
    }
    static bool selects(const SeriesSamples &series, const std::vector<Matcher> &matchers)
    {
        return std::all_of(matchers.begin(), matchers.end(),
            [&](const Matcher &matcher) { return matcher.matches(series.labels); });
    }
    RangeValue rangeSelector()
    {
        const std::vector<Matcher> matchers = selector();
        expect("[");
        RangeValue range;
        range.rangeMs = durationMs();
        expect("]");
        for (const SeriesSamples &series : m_metrics.series()) {
            if (!selects(series, matchers))
                continue;
            SeriesSamples inRange { series.labels, {} };
            for (const auto &sample : series.samples) {
                if (sample.first > m_atMs - range.rangeMs && sample.first <= m_atMs)
                    inRange.samples.push_back(sample);
            }
            range.series.push_back(std::move(inRange));
        }
        return range;
    }

    static QueryValue rateOf(const RangeValue &range, bool perSecond)
    {
        QueryValue value;
        for (const SeriesSamples &series : range.series) {
            if (series.samples.size() < 2)
                continue; // as Prometheus: a rate needs two samples
            const double increase = seriesIncrease(series);
            const double seconds
                = double(series.samples.back().first - series.samples.front().first) / 1000.0;
            value.vector.push_back(
                { withoutName(series.labels), perSecond ? increase / seconds : increase });
        }
        return value;
    }

    QueryValue aggregation(const std::string &op)
    {
        std::optional<std::pair<bool, std::set<std::string>>> grouping = groupingClause();
        expect("(");
        const QueryValue inner = expression();
        expect(")");
        if (!grouping)
            grouping = groupingClause();
        if (inner.scalar)
            fail(op + "() takes an instant vector");
        std::map<Labels, std::vector<double>> groups;
        for (const auto &element : inner.vector) {
            Labels key;
            if (grouping && !grouping->first) { // by
                for (const std::string &label : grouping->second) {
                    if (const auto found = element.labels.find(label);
                        found != element.labels.end())
                        key.insert(*found);
                }
            } else if (grouping) { // without
                key = withoutName(element.labels);
                for (const std::string &label : grouping->second)
                    key.erase(label);
            }
            groups[key].push_back(element.value);
        }
        QueryValue value;
        for (const auto &[labels, values] : groups) {
            double result = 0;
            if (op == "sum" || op == "avg") {
                for (double v : values)
                    result += v;
                if (op == "avg")
                    result /= double(values.size());
            } else if (op == "min") {
                result = *std::min_element(values.begin(), values.end());
            } else if (op == "max") {
                result = *std::max_element(values.begin(), values.end());
            } else {
                result = double(values.size());
            }
            value.vector.push_back({ labels, result });
        }
        return value;
    }
    // `by (a, b)` → {false, {a, b}}; `without (a)` → {true, {a}}; none → nullopt.
    std::optional<std::pair<bool, std::set<std::string>>> groupingClause()
    {
        const std::string word = peekIdentifier();
        if (word != "by" && word != "without")
            return std::nullopt;
        m_pos += word.size();
        expect("(");
        std::set<std::string> labels;
        while (!take(")")) {
            labels.insert(identifier());
            if (!take(",")) {
                expect(")");
                break;
            }
        }
        return std::make_pair(word == "without", labels);
    }

    QueryValue histogramQuantile(double quantile, const QueryValue &buckets) const
    {
        if (buckets.scalar)
            fail("histogram_quantile() takes the buckets as an instant vector");
        std::map<Labels, std::vector<std::pair<double, double>>> histograms; // labels → (le, count)
        for (const auto &element : buckets.vector) {
            const auto le = element.labels.find("le");
            if (le == element.labels.end())
                continue;
            Labels key = withoutName(element.labels);
            key.erase("le");
            const double bound = le->second == "+Inf" ? std::numeric_limits<double>::infinity()
                                                      : std::atof(le->second.c_str());
            histograms[key].emplace_back(bound, element.value);
        }
        QueryValue value;
        for (auto &[labels, counts] : histograms) {
            std::sort(counts.begin(), counts.end());
            value.vector.push_back({ labels, quantileOf(quantile, counts) });
        }
        return value;
    }
    // Prometheus' bucketQuantile: linear interpolation inside the bucket holding the rank.
    static double quantileOf(double quantile, const std::vector<std::pair<double, double>> &counts)
    {
        if (quantile < 0)
            return -std::numeric_limits<double>::infinity();
        if (quantile > 1)
            return std::numeric_limits<double>::infinity();
        if (counts.size() < 2 || !std::isinf(counts.back().first))
            return std::numeric_limits<double>::quiet_NaN();
        const double total = counts.back().second;
        if (total <= 0)
            return std::numeric_limits<double>::quiet_NaN();
        const double rank = quantile * total;
        size_t bucket = 0;
        while (bucket < counts.size() - 1 && counts[bucket].second < rank)
            ++bucket;
        if (bucket == counts.size() - 1)
            return counts[counts.size() - 2].first;
        if (bucket == 0 && counts[0].first <= 0)
            return counts[0].first;
        double lower = 0, below = 0;
        if (bucket > 0) {
            lower = counts[bucket - 1].first;
            below = counts[bucket - 1].second;
        }
        const double inBucket = counts[bucket].second - below;
        const double upper = counts[bucket].first;
        return inBucket <= 0 ? upper : lower + (upper - lower) * ((rank - below) / inBucket);
    }

    QueryValue binary(const QueryValue &left, const QueryValue &right, char op) const
    {
        const auto apply = [op](double a, double b) {
            switch (op) {
            case '+':
                return a + b;
            case '-':
                return a - b;
            case '*':
                return a * b;
            default:
                return a / b; // IEEE: x/0 is ±Inf, 0/0 NaN, as Prometheus
            }
        };
        if (left.scalar && right.scalar)
            return QueryValue { true, apply(left.scalarValue, right.scalarValue), {} };
        QueryValue value;
        if (left.scalar || right.scalar) {
            const QueryValue &vector = left.scalar ? right : left;
            for (const auto &element : vector.vector) {
                value.vector.push_back({ withoutName(element.labels),
                    left.scalar ? apply(left.scalarValue, element.value)
                                : apply(element.value, right.scalarValue) });
            }
            return value;
        }
        std::map<Labels, double> rights;
        for (const auto &element : right.vector) {
            if (!rights.emplace(withoutName(element.labels), element.value).second)
                fail("many-to-many matching is not allowed: the right side has duplicate label "
                     "sets");
        }
        for (const auto &element : left.vector) {
            Labels labels = withoutName(element.labels);
            if (const auto match = rights.find(labels); match != rights.end())
                value.vector.push_back({ std::move(labels), apply(element.value, match->second) });
        }
        return value;
    }

    const std::string &m_text;
    const TrafficMetrics &m_metrics;
    int64_t m_atMs;
    size_t m_pos = 0;
};

std::string numberText(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

} // namespace

Result<QueryValue> evaluateQuery(
    const std::string &query, const TrafficMetrics &metrics, int64_t atMs)
{
    try {
        return Evaluator(query, metrics, atMs).run();
    } catch (const QueryError &error) {
        return dra::fail(common::Error::Code::Invalid,
            common::qs(
                "parse error at char " + std::to_string(error.at + 1) + ": " + error.message));
    }
}

std::pair<int, nlohmann::json> prometheusQueryApi(
    const std::string &query, const TrafficMetrics &metrics, int64_t atMs)
{
    using nlohmann::json;
    Result<QueryValue> value = evaluateQuery(query, metrics, atMs);
    if (!value)
        return { 400,
            { { "status", "error" }, { "errorType", "bad_data" },
                { "error", value.error().message.toStdString() } } };
    const double seconds = double(atMs) / 1000.0;
    if (value->scalar)
        return {
            200,
            { { "status", "success" },
                { "data",
                    { { "resultType", "scalar" },
                        { "result", json::array({ seconds, numberText(value->scalarValue) }) } } } }
        };
    json result = json::array();
    for (const auto &element : value->vector)
        result.push_back({ { "metric", element.labels },
            { "value", json::array({ seconds, numberText(element.value) }) } });
    return { 200,
        { { "status", "success" },
            { "data", { { "resultType", "vector" }, { "result", std::move(result) } } } } };
}

} // namespace dra::sandbox
