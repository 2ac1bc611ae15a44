package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.junit.jupiter.api.Test;

class CliJsonTest {
    @Test
    void writesWhatTheBodyWritesAsCompactJson() {
        String json = CliJson.write(g -> {
            g.writeStartObject();
            g.writeStringField("table", "t");
            g.writeNumberField("rows", 3);
            g.writeEndObject();
        });

        assertThat(json).isEqualTo("{\"table\":\"t\",\"rows\":3}");
    }

    @Test
    void aWriteFailureIsUnchecked() {
        assertThatThrownBy(() -> CliJson.write(g -> {
            throw new IOException("disk");
        })).isInstanceOf(UncheckedIOException.class);
    }
}
