package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SensitiveFlowTest {
    private static final ColumnRef PASSWORD = ColumnRef.of("users", "password");
    private static final ColumnRef NAME = ColumnRef.of("users", "name");
    private static final Predicate<String> SENSITIVE = c -> SensitiveNames.isSensitive(c, Set.of());

    private static ColumnUse use(ColumnRef column, UsePosition position, FlowStep... chain) {
        return new ColumnUse(column, position, List.of(chain));
    }

    private static String refusal(ColumnUse... uses) {
        GuardException e = (GuardException) org.assertj.core.api.Assertions.catchThrowable(
                () -> SensitiveFlow.check(List.of(uses), SENSITIVE));
        assertThat(e).isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        return e.getMessage();
    }

    @Test
    void aSensitiveValueMayBecomeAnOutputThroughTotalSteps() {
        assertThatCode(() -> SensitiveFlow.check(List.of(
                use(PASSWORD, UsePosition.OUTPUT),
                use(PASSWORD, UsePosition.OUTPUT, FlowStep.total("upper"), FlowStep.total("max")),
                use(NAME, UsePosition.FILTER, FlowStep.partial("~~"))), SENSITIVE)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @EnumSource(value = UsePosition.class, mode = EnumSource.Mode.EXCLUDE, names = "OUTPUT")
    void everyOtherPositionIsRefusedWithItsOwnWords(UsePosition position) {
        assertThat(refusal(use(PASSWORD, position))).isEqualTo("Column 'password' is sensitive: its values may be selected "
                + "(they come back redacted) but not used to " + position.verb() + ".");
    }

    /** The error oracle a red team used on MySQL: pow(ascii(substring(password, 8, 1)), 154). */
    @Test
    void aPartialStepAnywhereInTheChainIsRefusedNamingIt() {
        assertThat(refusal(use(PASSWORD, UsePosition.OUTPUT, FlowStep.partial("substring"), FlowStep.total("ascii"),
                FlowStep.partial("pow")))).endsWith("not computed on or compared, as 'substring' does.");
        assertThat(refusal(use(PASSWORD, UsePosition.OUTPUT, FlowStep.total("ascii"),
                new FlowStep("repeat", CostClass.AMPLIFYING)))).endsWith("as 'repeat' does.");
    }

    @Test
    void positionsAreReportedBeforeStepsAndInTheirDeclaredOrder() {
        assertThat(refusal(use(PASSWORD, UsePosition.OUTPUT, FlowStep.partial("cast")), use(PASSWORD, UsePosition.ORDERING),
                use(PASSWORD, UsePosition.FILTER))).endsWith("not used to filter rows.");
        assertThat(refusal(use(PASSWORD, UsePosition.DISTINCT), use(PASSWORD, UsePosition.SET_COMPARISON)))
                .endsWith("not used to be compared by a set operation.");
    }

    @Test
    void ordinaryColumnsAreNotItsConcern() {
        assertThatCode(() -> SensitiveFlow.check(List.of(use(NAME, UsePosition.ORDERING), use(NAME, UsePosition.OUTPUT,
                FlowStep.partial("pow"))), SENSITIVE)).doesNotThrowAnyException();
    }

    @Test
    void operationNamesThatAreNotSafeToShowAreWithheld() {
        assertThat(refusal(use(PASSWORD, UsePosition.OUTPUT, FlowStep.partial("x'; DROP")))).contains("(name withheld)");
        assertThatThrownBy(() -> new FlowStep(" ", CostClass.TOTAL)).isInstanceOf(IllegalArgumentException.class);
    }
}
