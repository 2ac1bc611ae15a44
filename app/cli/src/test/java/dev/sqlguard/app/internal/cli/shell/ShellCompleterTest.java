package dev.sqlguard.app.internal.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.jline.reader.Candidate;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/** Tab completion as JLine calls it: the line parsed by the shell's parser, candidates from the catalog. */
class ShellCompleterTest {
    private static final List<TableDescription> CATALOG = List.of(
            new TableDescription(TableRef.of("claims"), List.of(new ColumnDescription("id", "BIGINT", false),
                    new ColumnDescription("region", "VARCHAR", false), new ColumnDescription("claimant_ssn", "VARCHAR", true)),
                    OptionalLong.of(3)),
            new TableDescription(TableRef.of("regions"), List.of(new ColumnDescription("region", "VARCHAR", false),
                    new ColumnDescription("manager", "VARCHAR", false)), OptionalLong.of(2)));

    private final ShellCompleter completer = new ShellCompleter(() -> CATALOG);

    private List<String> complete(String line) {
        ParsedLine parsed = new SqlWordParser().parse(line, line.length(), Parser.ParseContext.COMPLETE);
        List<Candidate> candidates = new ArrayList<>();
        completer.complete(null, parsed, candidates);
        return candidates.stream().map(Candidate::value).toList();
    }

    @Test
    void completesTablesColumnsAndKeywords() {
        assertThat(complete("SELECT count(*) FROM cl")).containsExactly("claims", "claimant_ssn");
        assertThat(complete("SELECT reg")).containsExactly("regions", "region");
        assertThat(complete("sel")).containsExactly("select");
        assertThat(complete("SELECT count(claims.re")).containsExactly("claims.region");
        assertThat(complete("SELECT r.ma")).containsExactly("r.manager");
    }

    @Test
    void completesTheShellsCommandsAtTheStartOfALine() {
        assertThat(complete("\\d")).contains("\\d", "\\dt");
        assertThat(complete(".ta")).containsExactly(".tables");
    }

    @Test
    void theParserFindsTheWordUnderTheCursor() {
        ParsedLine parsed = new SqlWordParser().parse("SELECT sum(claims.amo) FROM claims", 21, Parser.ParseContext.COMPLETE);
        assertThat(parsed.word()).isEqualTo("claims.amo");
        assertThat(parsed.wordCursor()).isEqualTo(10);
        ParsedLine between = new SqlWordParser().parse("SELECT ", 7, Parser.ParseContext.COMPLETE);
        assertThat(between.word()).isEmpty();
        assertThat(between.words()).containsExactly("SELECT", "");
    }
}
