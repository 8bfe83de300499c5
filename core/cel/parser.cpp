// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/parser.h"

#include <charconv>
#include <cstdlib>

#include "core/cel/lexer.h"
#include "core/cel/macros.h"

namespace dra::cel {

namespace {

std::string describe(const Token &t)
{
    if (t.kind == TokenKind::End)
        return "end of input";
    return "'" + std::string(t.text) + "'";
}

// Recursive descent over cel-spec's grammar; stops at the first syntax error.
class Parser final : public MacroContext
{
public:
    Parser(std::string_view source, const ParseOptions &options)
        : m_lexer(source)
        , m_options(options)
    {
        advance();
    }

    ExprPtr parseAll()
    {
        ExprPtr e = expr();
        if (!m_failed && m_tok.kind != TokenKind::End)
            fail(m_tok.offset, "syntax error: unexpected " + describe(m_tok));
        return m_failed ? nullptr : std::move(e);
    }

    int32_t errorOffset() const { return m_errorOffset; }
    const std::string &errorMessage() const { return m_errorMessage; }
    int64_t maxId() const { return m_nextId; }

    ExprPtr newExpr(ExprKind kind, int32_t offset) override
    {
        auto e = std::make_unique<Expr>();
        e->kind = kind;
        e->id = ++m_nextId;
        e->offset = offset;
        return e;
    }

    void reportError(int32_t offset, std::string message) override
    {
        fail(offset, std::move(message));
    }

private:
    void advance()
    {
        m_tok = m_lexer.next();
        if (m_tok.kind == TokenKind::Error)
            fail(m_tok.offset, "syntax error: " + m_tok.value);
    }

    void fail(int32_t offset, std::string message)
    {
        if (m_failed)
            return;
        m_failed = true;
        m_errorOffset = offset;
        m_errorMessage = std::move(message);
    }

    // Consumes the current token when it is `kind`.
    bool accept(TokenKind kind)
    {
        if (m_tok.kind != kind)
            return false;
        advance();
        return true;
    }

    bool expect(TokenKind kind, const char *what)
    {
        if (accept(kind))
            return true;
        fail(m_tok.offset,
            std::string("syntax error: expected ") + what + ", found " + describe(m_tok));
        return false;
    }

    ExprPtr errorExpr() { return newExpr(ExprKind::Constant, m_tok.offset); }

    ExprPtr call(std::string name, int32_t offset, std::vector<ExprPtr> args)
    {
        ExprPtr e = newExpr(ExprKind::Call, offset);
        e->name = std::move(name);
        e->args = std::move(args);
        return e;
    }

    ExprPtr binary(std::string name, int32_t offset, ExprPtr a, ExprPtr b)
    {
        std::vector<ExprPtr> args;
        args.push_back(std::move(a));
        args.push_back(std::move(b));
        return call(std::move(name), offset, std::move(args));
    }

    struct DepthGuard
    {
        Parser &p;
        explicit DepthGuard(Parser &parser)
            : p(parser)
        {
            if (++p.m_depth > p.m_options.maxRecursionDepth)
                p.failRecursionLimit();
        }
        ~DepthGuard() { --p.m_depth; }
    };

    ExprPtr expr()
    {
        DepthGuard guard(*this);
        if (m_failed)
            return errorExpr();
        ExprPtr cond = conditionalOr();
        if (m_failed || m_tok.kind != TokenKind::Question)
            return cond;
        const int32_t offset = m_tok.offset;
        advance();
        ExprPtr a = conditionalOr();
        if (!expect(TokenKind::Colon, "':'"))
            return errorExpr();
        ExprPtr b = expr();
        std::vector<ExprPtr> args;
        args.push_back(std::move(cond));
        args.push_back(std::move(a));
        args.push_back(std::move(b));
        return call("_?_:_", offset, std::move(args));
    }

    ExprPtr conditionalOr() { return logical(TokenKind::OrOr, "_||_"); }
    ExprPtr conditionalAnd() { return logical(TokenKind::AndAnd, "_&&_"); }

    // a && b && c ... as a balanced tree, as cel-go builds it: long generated chains stay
    // shallow, and && and || are commutative, so the shape does not change the result.
    ExprPtr logical(TokenKind op, const char *name)
    {
        std::vector<ExprPtr> operands;
        std::vector<int32_t> offsets;
        operands.push_back(op == TokenKind::OrOr ? conditionalAnd() : relation());
        while (!m_failed && m_tok.kind == op) {
            offsets.push_back(m_tok.offset);
            advance();
            operands.push_back(op == TokenKind::OrOr ? conditionalAnd() : relation());
        }
        return balance(name, operands, offsets, 0, operands.size());
    }

    ExprPtr balance(const char *name, std::vector<ExprPtr> &operands,
        const std::vector<int32_t> &offsets, size_t begin, size_t end)
    {
        if (end - begin == 1)
            return std::move(operands[begin]);
        const size_t mid = begin + (end - begin) / 2;
        ExprPtr left = balance(name, operands, offsets, begin, mid);
        ExprPtr right = balance(name, operands, offsets, mid, end);
        return binary(name, offsets[mid - 1], std::move(left), std::move(right));
    }

    // Left-associative chains (1 + 2 + 3, a.b.c, a[0][1]) deepen the tree by one per link.
    bool chainTooDeep(int &links)
    {
        if (++links + m_depth <= m_options.maxRecursionDepth)
            return false;
        failRecursionLimit();
        return true;
    }

    void failRecursionLimit()
    {
        fail(m_tok.offset,
            "expression recursion limit exceeded: " + std::to_string(m_options.maxRecursionDepth));
    }

    // One left-associative precedence level: operands from `next`, joined by the operators
    // `opName` recognises (nullptr ends the chain).
    template <ExprPtr (Parser::*next)(), const char *(*opName)(const Token &)> ExprPtr leftChain()
    {
        ExprPtr e = (this->*next)();
        int links = 0;
        while (!m_failed) {
            const char *op = opName(m_tok);
            if (!op || chainTooDeep(links))
                break;
            const int32_t offset = m_tok.offset;
            advance();
            e = binary(op, offset, std::move(e), (this->*next)());
        }
        return e;
    }

    static const char *relationOp(const Token &tok)
    {
        switch (tok.kind) {
        case TokenKind::Less:
            return "_<_";
        case TokenKind::LessEqual:
            return "_<=_";
        case TokenKind::Greater:
            return "_>_";
        case TokenKind::GreaterEqual:
            return "_>=_";
        case TokenKind::EqualEqual:
            return "_==_";
        case TokenKind::NotEqual:
            return "_!=_";
        case TokenKind::Ident:
            return tok.text == "in" ? "@in" : nullptr;
        default:
            return nullptr;
        }
    }

    static const char *additionOp(const Token &tok)
    {
        switch (tok.kind) {
        case TokenKind::Plus:
            return "_+_";
        case TokenKind::Minus:
            return "_-_";
        default:
            return nullptr;
        }
    }

    static const char *multiplicationOp(const Token &tok)
    {
        switch (tok.kind) {
        case TokenKind::Star:
            return "_*_";
        case TokenKind::Slash:
            return "_/_";
        case TokenKind::Percent:
            return "_%_";
        default:
            return nullptr;
        }
    }

    ExprPtr relation() { return leftChain<&Parser::addition, relationOp>(); }
    ExprPtr addition() { return leftChain<&Parser::multiplication, additionOp>(); }
    ExprPtr multiplication() { return leftChain<&Parser::unary, multiplicationOp>(); }

    ExprPtr unary()
    {
        DepthGuard guard(*this);
        if (m_failed)
            return errorExpr();
        if (m_tok.kind == TokenKind::Not || m_tok.kind == TokenKind::Minus) {
            const TokenKind op = m_tok.kind;
            const int32_t offset = m_tok.offset;
            int count = 0;
            while (m_tok.kind == op) {
                ++count;
                advance();
            }
            if (op == TokenKind::Minus && count == 1
                && (m_tok.kind == TokenKind::Int || m_tok.kind == TokenKind::Double)) {
                // A negative literal, so that -9223372036854775808 is representable.
                return memberSuffix(literal(true, offset));
            }
            ExprPtr operand = member();
            if (count % 2 == 0)
                return operand;
            std::vector<ExprPtr> args;
            args.push_back(std::move(operand));
            return call(op == TokenKind::Not ? "!_" : "-_", offset, std::move(args));
        }
        return member();
    }

    ExprPtr member() { return memberSuffix(primary()); }

    // Whether `e` is a (possibly dotted) name that may start a message construction.
    static bool isQualifiedName(const Expr &e)
    {
        if (e.kind == ExprKind::Ident)
            return true;
        return e.kind == ExprKind::Select && !e.testOnly && e.target && isQualifiedName(*e.target);
    }

    static std::string qualifiedName(const Expr &e)
    {
        if (e.kind == ExprKind::Ident)
            return e.name;
        return qualifiedName(*e.target) + "." + e.name;
    }

    bool fieldName(std::string &out)
    {
        if (m_tok.kind == TokenKind::Ident || m_tok.kind == TokenKind::QuotedIdent) {
            out = m_tok.kind == TokenKind::Ident ? std::string(m_tok.text) : m_tok.value;
            advance();
            return true;
        }
        fail(m_tok.offset, "syntax error: expected a field name, found " + describe(m_tok));
        return false;
    }

    ExprPtr memberSuffix(ExprPtr e)
    {
        bool nameChain = e && isQualifiedName(*e) && m_lastPrimaryWasName;
        int links = 0;
        while (!m_failed) {
            if ((m_tok.kind == TokenKind::Dot || m_tok.kind == TokenKind::LBracket)
                && chainTooDeep(links))
                break;
            if (m_tok.kind == TokenKind::Dot) {
                const int32_t offset = m_tok.offset;
                advance();
                const bool optional = accept(TokenKind::Question);
                const bool quoted = m_tok.kind == TokenKind::QuotedIdent;
                std::string name;
                if (!fieldName(name))
                    return errorExpr();
                if (m_tok.kind == TokenKind::LParen && !optional && !quoted) {
                    advance();
                    std::vector<ExprPtr> args = exprList(TokenKind::RParen);
                    if (!expect(TokenKind::RParen, "')'"))
                        return errorExpr();
                    e = finishCall(std::move(name), std::move(e), std::move(args), offset);
                    nameChain = false;
                    continue;
                }
                if (optional) {
                    ExprPtr field = newExpr(ExprKind::Constant, offset);
                    field->constant = Value::string(name);
                    e = binary("_?._", offset, std::move(e), std::move(field));
                    nameChain = false;
                    continue;
                }
                ExprPtr sel = newExpr(ExprKind::Select, offset);
                sel->name = std::move(name);
                sel->target = std::move(e);
                e = std::move(sel);
                nameChain = nameChain && !quoted;
            } else if (m_tok.kind == TokenKind::LBracket) {
                const int32_t offset = m_tok.offset;
                advance();
                const bool optional = accept(TokenKind::Question);
                ExprPtr index = expr();
                if (!expect(TokenKind::RBracket, "']'"))
                    return errorExpr();
                e = binary(optional ? "_[?_]" : "_[_]", offset, std::move(e), std::move(index));
                nameChain = false;
            } else if (m_tok.kind == TokenKind::LBrace && nameChain) {
                e = messageConstruction(qualifiedName(*e), e->offset);
                nameChain = false;
            } else {
                break;
            }
        }
        return e;
    }

    ExprPtr finishCall(std::string name, ExprPtr target, std::vector<ExprPtr> args, int32_t offset)
    {
        if (m_options.enableMacros) {
            if (ExprPtr expanded
                = expandMacro(*this, name, target, args, offset, m_options.twoVarComprehensions))
                return expanded;
        }
        ExprPtr c = call(std::move(name), offset, std::move(args));
        c->target = std::move(target);
        return c;
    }

    std::vector<ExprPtr> exprList(TokenKind close)
    {
        std::vector<ExprPtr> out;
        if (m_tok.kind == close)
            return out;
        out.push_back(expr());
        while (!m_failed && m_tok.kind == TokenKind::Comma) {
            advance();
            out.push_back(expr());
        }
        return out;
    }

    ExprPtr messageConstruction(std::string typeName, int32_t offset)
    {
        ExprPtr e = newExpr(ExprKind::Struct, offset);
        e->name = std::move(typeName);
        advance(); // '{'
        while (!m_failed && m_tok.kind != TokenKind::RBrace) {
            ExprEntry entry;
            entry.offset = m_tok.offset;
            entry.optional = accept(TokenKind::Question);
            if (!fieldName(entry.field))
                return errorExpr();
            if (!expect(TokenKind::Colon, "':'"))
                return errorExpr();
            entry.value = expr();
            e->entries.push_back(std::move(entry));
            if (m_tok.kind != TokenKind::Comma)
                break;
            advance();
        }
        if (!expect(TokenKind::RBrace, "'}'"))
            return errorExpr();
        return e;
    }

    ExprPtr literal(bool negative, int32_t offset)
    {
        ExprPtr e = newExpr(ExprKind::Constant, negative ? offset : m_tok.offset);
        const Token t = m_tok;
        advance();
        if (t.kind == TokenKind::Double) {
            std::string text = (negative ? "-" : "") + t.value;
            e->constant = Value::floating(std::strtod(text.c_str(), nullptr));
            return e;
        }
        uint64_t magnitude = 0;
        const auto [ptr, ec] = std::from_chars(
            t.value.data(), t.value.data() + t.value.size(), magnitude, t.hex ? 16 : 10);
        if (ec != std::errc() || ptr != t.value.data() + t.value.size()) {
            fail(t.offset,
                "invalid " + std::string(t.kind == TokenKind::Uint ? "uint" : "int")
                    + " literal: " + std::string(t.text));
            return e;
        }
        if (t.kind == TokenKind::Uint) {
            e->constant = Value::unsignedInteger(magnitude);
            return e;
        }
        const uint64_t limit = negative ? (uint64_t(1) << 63) : uint64_t(INT64_MAX);
        if (magnitude > limit) {
            fail(t.offset,
                "invalid int literal: " + std::string(negative ? "-" : "") + std::string(t.text));
            return e;
        }
        e->constant = Value::integer(
            negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude));
        return e;
    }

    ExprPtr primary()
    {
        DepthGuard guard(*this);
        m_lastPrimaryWasName = false;
        if (m_failed)
            return errorExpr();
        const int32_t offset = m_tok.offset;
        switch (m_tok.kind) {
        case TokenKind::Int:
        case TokenKind::Uint:
        case TokenKind::Double:
            return literal(false, offset);
        case TokenKind::String:
        case TokenKind::Bytes: {
            ExprPtr e = newExpr(ExprKind::Constant, offset);
            e->constant = m_tok.kind == TokenKind::String ? Value::string(m_tok.value)
                                                          : Value::bytes(m_tok.value);
            advance();
            return e;
        }
        case TokenKind::LParen: {
            advance();
            ExprPtr e = expr();
            if (!expect(TokenKind::RParen, "')'"))
                return errorExpr();
            return e;
        }
        case TokenKind::LBracket:
            return listLiteral();
        case TokenKind::LBrace:
            return mapLiteral();
        case TokenKind::Dot:
        case TokenKind::Ident: {
            std::string name;
            if (m_tok.kind == TokenKind::Dot) {
                advance();
                name = ".";
                if (m_tok.kind != TokenKind::Ident) {
                    fail(m_tok.offset,
                        "syntax error: expected an identifier, found " + describe(m_tok));
                    return errorExpr();
                }
            }
            const std::string_view word = m_tok.text;
            if (name.empty()) {
                if (word == "true" || word == "false") {
                    advance();
                    ExprPtr e = newExpr(ExprKind::Constant, offset);
                    e->constant = Value::boolean(word == "true");
                    return e;
                }
                if (word == "null") {
                    advance();
                    return newExpr(ExprKind::Constant, offset);
                }
            }
            if (word == "in" || word == "true" || word == "false" || word == "null"
                || isReservedWord(word)) {
                fail(m_tok.offset, "reserved identifier: " + std::string(word));
                return errorExpr();
            }
            name += word;
            advance();
            if (m_tok.kind == TokenKind::LParen) {
                advance();
                std::vector<ExprPtr> args = exprList(TokenKind::RParen);
                if (!expect(TokenKind::RParen, "')'"))
                    return errorExpr();
                ExprPtr none;
                return finishCall(std::move(name), std::move(none), std::move(args), offset);
            }
            ExprPtr e = newExpr(ExprKind::Ident, offset);
            e->name = std::move(name);
            m_lastPrimaryWasName = true;
            return e;
        }
        default:
            fail(m_tok.offset, "syntax error: unexpected " + describe(m_tok));
            return errorExpr();
        }
    }

    ExprPtr listLiteral()
    {
        ExprPtr e = newExpr(ExprKind::List, m_tok.offset);
        advance();
        while (!m_failed && m_tok.kind != TokenKind::RBracket) {
            if (accept(TokenKind::Question))
                e->optionalIndices.push_back(static_cast<int32_t>(e->args.size()));
            e->args.push_back(expr());
            if (m_tok.kind != TokenKind::Comma)
                break;
            advance();
        }
        if (!expect(TokenKind::RBracket, "']'"))
            return errorExpr();
        return e;
    }

    ExprPtr mapLiteral()
    {
        ExprPtr e = newExpr(ExprKind::Map, m_tok.offset);
        advance();
        while (!m_failed && m_tok.kind != TokenKind::RBrace) {
            ExprEntry entry;
            entry.offset = m_tok.offset;
            entry.optional = accept(TokenKind::Question);
            entry.key = expr();
            if (!expect(TokenKind::Colon, "':'"))
                return errorExpr();
            entry.value = expr();
            e->entries.push_back(std::move(entry));
            if (m_tok.kind != TokenKind::Comma)
                break;
            advance();
        }
        if (!expect(TokenKind::RBrace, "'}'"))
            return errorExpr();
        return e;
    }

    Lexer m_lexer;
    const ParseOptions &m_options;
    Token m_tok;
    int64_t m_nextId = 0;
    int m_depth = 0;
    bool m_failed = false;
    bool m_lastPrimaryWasName = false;
    int32_t m_errorOffset = 0;
    std::string m_errorMessage;
};

} // namespace

std::optional<ParsedExpr> parse(
    std::string_view source, const ParseOptions &options, std::vector<Diagnostic> *diagnostics)
{
    SourceInfo info(source);
    if (source.size() > options.maxExpressionBytes) {
        addError(diagnostics, info, 0,
            "expression size " + std::to_string(source.size()) + " exceeds the limit of "
                + std::to_string(options.maxExpressionBytes) + " bytes");
        return std::nullopt;
    }
    ParsedExpr out;
    out.source = std::string(source);
    Parser parser(out.source, options);
    out.root = parser.parseAll();
    if (!out.root) {
        addError(diagnostics, info, parser.errorOffset(), parser.errorMessage());
        return std::nullopt;
    }
    out.maxId = parser.maxId();
    return out;
}

} // namespace dra::cel
