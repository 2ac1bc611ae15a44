package dev.sqlguard.jdbc.ansi;

import java.util.List;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.TokenMgrException;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;

/**
 * The one statement of a text as JSqlParser reads it, for every engine that parses with JSqlParser
 * (the ANSI renderer's and MySQL's): plain parsing first, then complex parsing (which some valid
 * SELECTs need), on the caller's thread, so that a deep input fails with {@code StackOverflowError}
 * there and not on a parser thread of JSqlParser's own.
 */
public final class OneStatement {
    private OneStatement() {
    }

    /**
     * @param notParsed the SYNTAX_ERROR message, naming the engine
     * @throws GuardException SYNTAX_ERROR with {@code notParsed}, EMPTY_QUERY or MULTIPLE_STATEMENTS
     */
    public static Statement parse(String sql, String notParsed) {
        Statements statements;
        try {
            statements = parse(sql, false);
        } catch (ParseException | TokenMgrException first) {
            try {
                statements = parse(sql, true);
            } catch (ParseException | TokenMgrException e) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, notParsed);
            }
        }
        List<Statement> list = statements == null ? List.of() : statements;
        if (list.isEmpty()) {
            throw new GuardException(ErrorCode.EMPTY_QUERY);
        }
        if (list.size() > 1) {
            throw new GuardException(ErrorCode.MULTIPLE_STATEMENTS);
        }
        return list.get(0);
    }

    private static Statements parse(String sql, boolean complex) throws ParseException {
        CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(complex);
        return parser.Statements();
    }
}
