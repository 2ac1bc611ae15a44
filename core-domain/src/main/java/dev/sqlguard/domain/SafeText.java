package dev.sqlguard.domain;

import java.util.regex.Pattern;

/**
 * Last line of defence for messages shown to a model or user. Messages are built from
 * {@link ErrorCode} defaults and identifiers only; if one still looks like it carries a stack
 * trace, a path, a URL, driver text or a credential, it is replaced by the code's default message.
 */
public final class SafeText {
    static final int MAX_MESSAGE = 300;

    private static final Pattern UNSAFE = Pattern.compile(
            "(?i)(\\bat\\s+[\\w$.]+\\([\\w$.]*(:\\d+)?\\))"   // stack frame
            + "|(exception|\\berror:|caused by|sqlstate|errno)" // driver or JVM text
            + "|(/(home|root|tmp|var|etc|usr|opt|proc|dev|users)\\b)|([a-z]:\\\\)" // paths
            + "|(jdbc:|https?://|[a-z0-9.-]+:\\d{2,5}\\b)"   // URLs and endpoints
            + "|(password\\s*[=:]|passwd\\s*[=:]|api[_-]?key\\s*[=:]|secret\\s*[=:]|token\\s*[=:])"
            + "|(\\.duckdb\\b|\\.wal\\b|\\.java\\b|\\.jar\\b)"
            + "|[\\r\\n\\t]");

    private SafeText() {
    }

    /** {@code message} if it looks safe and short enough, else the default message of {@code code}. */
    public static String clean(String message, ErrorCode code) {
        if (message == null || message.isBlank() || message.length() > MAX_MESSAGE || UNSAFE.matcher(message).find()) {
            return code.defaultMessage();
        }
        return message;
    }

    /** Quotes an identifier for a message if it is short and printable, else a placeholder. */
    public static String identifier(String name) {
        if (name == null || name.length() > 64 || !name.chars().allMatch(c -> c == '_' || c == '.' || Character.isLetterOrDigit(c))) {
            return "(name withheld)";
        }
        return "'" + name + "'";
    }

    /** Quotes a function or operator name for a message ({@code pow}, {@code +}, {@code case when}), else a placeholder. */
    public static String operation(String name) {
        if (name == null || name.isEmpty() || name.length() > 40
                || !name.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || " _.+-*/%<>=!|&^~@#".indexOf(c) >= 0))) {
            return "(name withheld)";
        }
        return "'" + name + "'";
    }
}
