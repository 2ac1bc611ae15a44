package dev.sqlguard.mysql.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * MariaDB's chained comparison {@code a = b = c}, which JSqlParser 5.4 cannot parse: the server reads
 * it left to right, as {@code (a = b) = c}. When the parser refuses a text, each chain whose operands
 * are plain (names, literals, arithmetic, function calls and parenthesised groups; no keyword
 * operator such as {@code IS}, {@code LIKE}, {@code BETWEEN} or {@code IN}) gets those parentheses,
 * and the parser tries again. Anything else is left as it is, and stays refused. Only the parse is
 * affected: what runs is rendered from the tree, with every comparison parenthesised.
 */
final class ChainedComparisons {
    private static final Set<String> COMPARISONS = Set.of("=", "<=>", "<>", "!=", "<", "<=", ">", ">=");
    private static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/", "%", ".");
    private static final Set<String> VALUES = Set.of("null", "true", "false");
    private static final int MAX_ROUNDS = 16;

    private record Token(String text, int start, int end, Kind kind) {
    }

    private enum Kind { WORD, LITERAL, OPEN, CLOSE, OPERATOR, OTHER }

    private ChainedComparisons() {
    }

    /** The text with the first pair of each plain chain parenthesised, or the text itself. */
    static String parenthesise(String sql) {
        String text = sql;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            String next = once(text);
            if (next.equals(text)) {
                return text;
            }
            text = next;
        }
        return text;
    }

    private static String once(String sql) {
        List<Token> tokens = tokens(sql);
        for (int i = 0; i < tokens.size(); i++) {
            if (!isComparison(tokens.get(i))) {
                continue;
            }
            int afterRight = operandEnd(tokens, i + 1);
            if (afterRight <= i + 1 || afterRight >= tokens.size() || !isComparison(tokens.get(afterRight))) {
                continue;
            }
            int leftStart = operandStart(tokens, i - 1);
            if (leftStart < 0 || leftStart >= i) {
                continue;
            }
            return sql.substring(0, tokens.get(leftStart).start()) + "(" + sql.substring(tokens.get(leftStart).start(),
                    tokens.get(afterRight - 1).end()) + ")" + sql.substring(tokens.get(afterRight - 1).end());
        }
        return sql;
    }

    private static boolean isComparison(Token t) {
        return t.kind() == Kind.OPERATOR && COMPARISONS.contains(t.text());
    }

    /** The index after the plain operand that starts at {@code from}; {@code from} when there is none. */
    private static int operandEnd(List<Token> tokens, int from) {
        int i = from;
        boolean expectValue = true;
        while (i < tokens.size()) {
            Token t = tokens.get(i);
            if (expectValue) {
                if (t.kind() == Kind.OPERATOR && (t.text().equals("-") || t.text().equals("+"))) {
                    i++;
                    continue;
                }
                int end = value(tokens, i);
                if (end < 0) {
                    return from;
                }
                i = end;
                expectValue = false;
            } else if (t.kind() == Kind.OPERATOR && ARITHMETIC.contains(t.text())) {
                i++;
                expectValue = true;
            } else {
                break;
            }
        }
        return expectValue ? from : i;
    }

    /** The index where the plain operand that ends at {@code last} begins, or -1. */
    private static int operandStart(List<Token> tokens, int last) {
        int i = last;
        int start = -1;
        boolean expectValue = true;
        while (i >= 0) {
            Token t = tokens.get(i);
            if (expectValue) {
                int begin = valueBackwards(tokens, i);
                if (begin < 0) {
                    return -1;
                }
                start = begin;
                i = begin - 1;
                expectValue = false;
                // a sign directly before the operand belongs to it
                while (i >= 0 && tokens.get(i).kind() == Kind.OPERATOR && (tokens.get(i).text().equals("-") || tokens.get(i).text().equals("+"))
                        && (i == 0 || tokens.get(i - 1).kind() == Kind.OPEN || tokens.get(i - 1).kind() == Kind.OTHER)) {
                    start = i;
                    i--;
                }
            } else if (t.kind() == Kind.OPERATOR && ARITHMETIC.contains(t.text())) {
                i--;
                expectValue = true;
            } else {
                break;
            }
        }
        if (expectValue) {
            return -1;
        }
        // the operand must be preceded by a boundary the comparison binds tighter than
        if (i >= 0) {
            Token before = tokens.get(i);
            boolean boundary = before.kind() == Kind.OPEN || before.text().equals(",")
                    || before.kind() == Kind.WORD && Set.of("where", "on", "having", "and", "or", "xor", "not", "when", "then", "else",
                            "select").contains(before.text().toLowerCase(Locale.ROOT));
            if (!boundary) {
                return -1;
            }
        }
        return start;
    }

    /** A plain value starting at {@code i}: a name, literal, function call or parenthesised group; the index after it, or -1. */
    private static int value(List<Token> tokens, int i) {
        Token t = tokens.get(i);
        if (t.kind() == Kind.LITERAL) {
            return i + 1;
        }
        if (t.kind() == Kind.OPEN) {
            return group(tokens, i);
        }
        if (t.kind() == Kind.WORD) {
            if (i + 1 < tokens.size() && tokens.get(i + 1).kind() == Kind.OPEN) {
                return group(tokens, i + 1);
            }
            return plainWord(t) ? i + 1 : -1;
        }
        return -1;
    }

    private static int valueBackwards(List<Token> tokens, int i) {
        Token t = tokens.get(i);
        if (t.kind() == Kind.LITERAL) {
            return i;
        }
        if (t.kind() == Kind.WORD) {
            return plainWord(t) ? i : -1;
        }
        if (t.kind() == Kind.CLOSE) {
            int depth = 0;
            for (int j = i; j >= 0; j--) {
                if (tokens.get(j).kind() == Kind.CLOSE) {
                    depth++;
                } else if (tokens.get(j).kind() == Kind.OPEN && --depth == 0) {
                    if (containsKeyword(tokens, j, i)) {
                        return -1;
                    }
                    return j > 0 && tokens.get(j - 1).kind() == Kind.WORD && !isKeyword(tokens.get(j - 1)) ? j - 1 : j;
                }
            }
        }
        return -1;
    }

    private static int group(List<Token> tokens, int open) {
        int depth = 0;
        for (int j = open; j < tokens.size(); j++) {
            if (tokens.get(j).kind() == Kind.OPEN) {
                depth++;
            } else if (tokens.get(j).kind() == Kind.CLOSE && --depth == 0) {
                return containsKeyword(tokens, open, j) ? -1 : j + 1;
            }
        }
        return -1;
    }

    /** Whether a group holds a query (its comparisons are not this chain's business, and it is left alone). */
    private static boolean containsKeyword(List<Token> tokens, int from, int to) {
        for (int j = from; j <= to; j++) {
            if (tokens.get(j).kind() == Kind.WORD && tokens.get(j).text().equalsIgnoreCase("select")) {
                return true;
            }
        }
        return false;
    }

    private static boolean plainWord(Token t) {
        return !isKeyword(t) || VALUES.contains(t.text().toLowerCase(Locale.ROOT));
    }

    private static boolean isKeyword(Token t) {
        String w = t.text().toLowerCase(Locale.ROOT);
        return !t.text().startsWith("`") && Set.of("select", "from", "where", "and", "or", "xor", "not", "on", "having", "when",
                "then", "else", "end", "case", "by", "group", "order", "limit", "as", "is", "in", "like", "between", "distinct",
                "union", "intersect", "except", "all", "any", "some", "exists", "interval", "div", "mod", "regexp", "rlike",
                "escape", "join", "using", "with", "asc", "desc", "over", "partition", "rows", "range", "null", "true", "false",
                "binary", "collate", "sounds", "member").contains(w);
    }

    private static List<Token> tokens(String sql) {
        List<Token> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'' || c == '"' || c == '`') {
                int end = i + 1;
                while (end < n && !(sql.charAt(end) == c && (end + 1 >= n || sql.charAt(end + 1) != c))) {
                    end += sql.charAt(end) == c ? 2 : 1;
                }
                end = Math.min(n, end + 1);
                out.add(new Token(sql.substring(i, end), i, end, c == '`' ? Kind.WORD : Kind.LITERAL));
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-' || c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                // comments: give up on the whole text (rare in a text the parser refused)
                return List.of();
            } else if (Character.isLetter(c) || c == '_' || c == '@' || c == '$') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$'
                        || sql.charAt(end) == '@')) {
                    end++;
                }
                out.add(new Token(sql.substring(i, end), i, end, Kind.WORD));
                i = end;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
                    end++;
                }
                out.add(new Token(sql.substring(i, end), i, end, Kind.LITERAL));
                i = end;
            } else if (c == '(') {
                out.add(new Token("(", i, i + 1, Kind.OPEN));
                i++;
            } else if (c == ')') {
                out.add(new Token(")", i, i + 1, Kind.CLOSE));
                i++;
            } else {
                String two = i + 1 < n ? sql.substring(i, i + 2) : "";
                String three = i + 2 < n ? sql.substring(i, i + 3) : "";
                String op = three.equals("<=>") ? three : Set.of("<=", ">=", "<>", "!=", "||", "&&", "<<", ">>", ":=").contains(two) ? two
                        : String.valueOf(c);
                Kind kind = "=<>!+-*/%.&|^~".indexOf(c) >= 0 ? Kind.OPERATOR : Kind.OTHER;
                out.add(new Token(op, i, i + op.length(), kind));
                i += op.length();
            }
        }
        return out;
    }
}
