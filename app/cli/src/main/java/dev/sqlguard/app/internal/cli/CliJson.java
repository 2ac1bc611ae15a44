package dev.sqlguard.app.internal.cli;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/** The JSON reports the CLI prints on stdout ({@code load}, {@code sources}), written with a streaming generator. */
final class CliJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** Writes one JSON value into a generator. */
    @FunctionalInterface
    interface Body {
        void writeTo(JsonGenerator g) throws IOException;
    }

    private CliJson() {
    }

    /** The compact JSON text that {@code body} writes. */
    static String write(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.writeTo(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
