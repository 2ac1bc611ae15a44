package dev.sqlguard.postgresql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.RowPolicy;

/** The server's generic plan of a filtered text, read for scans of a filtered table that escape its filter. */
class FilteredScansTest {
    private static final RowPolicy ROWS = RowPolicy.of(Optional.of("s"), Map.of("claims", "region = :tenant"), Map.of());

    private static String scan(String relation, String condition) {
        return "{\"Node Type\": \"Seq Scan\", \"Relation Name\": \"" + relation + "\", \"Schema\": \"s\", \"Alias\": \"claims\""
                + (condition == null ? "" : ", \"Filter\": \"" + condition + "\"") + "}";
    }

    private static String plan(String node) {
        return "[{\"Plan\": " + node + "}]";
    }

    @Test
    void aScanOfAFilteredTableMustCarryAnAttributesParameterOrSitBelowAOneTimeFilterOnOne() {
        FilteredScans.require(plan(scan("claims", "((claims.region)::text = $2)")), ROWS, Set.of(2));
        FilteredScans.require(plan(scan("users", null)), ROWS, Set.of(2));
        FilteredScans.require(plan("{\"Node Type\": \"Result\", \"One-Time Filter\": \"($2 = 'south'::text)\", \"Plans\": ["
                + scan("claims", "((claims.region)::text = 'south'::text)") + "]}"), ROWS, Set.of(2));
        for (String escaped : new String[] {plan(scan("claims", null)), plan(scan("claims", "(claims.id > $1)")),
                plan(scan("claims", "(claims.id > $21)")),
                plan("{\"Node Type\": \"Hash Join\", \"Join Filter\": \"($2 = 'x')\", \"Plans\": [" + scan("claims", null) + "]}")}) {
            assertThatThrownBy(() -> FilteredScans.require(escaped, ROWS, Set.of(2))).as(escaped)
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED));
        }
    }

    @Test
    void placeholdersAreNumberedOutsideQuotesAndTheAttributesOnesFound() {
        assertThat(FilteredScans.numbered("SELECT '?', \"a?\" FROM t WHERE a = ? AND b = 'x''?' AND c = ?"))
                .isEqualTo("SELECT '?', \"a?\" FROM t WHERE a = $1 AND b = 'x''?' AND c = $2");
        Bindings b = Bindings.builder().parameter().attribute("tenant").parameter().attribute("tenant").build();
        assertThat(dev.sqlguard.jdbc.ansi.RowPolicyCheck.attributeSlots(b)).containsExactly(2, 4);
    }
}
