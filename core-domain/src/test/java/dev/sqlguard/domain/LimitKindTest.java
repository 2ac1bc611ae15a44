package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class LimitKindTest {
    @Test
    void wireNamesAreTheDocumentedLabels() {
        assertThat(Arrays.stream(LimitKind.values()).map(LimitKind::wireName))
                .containsExactly("rows", "cell_chars", "bytes", "timeout", "memory", "disk");
    }
}
