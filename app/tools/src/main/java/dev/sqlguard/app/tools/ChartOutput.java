package dev.sqlguard.app.tools;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A chart drawn by {@code plot_chart}.
 *
 * @param png the PNG file, when rendering succeeded
 * @param vegaLite a Vega-Lite v5 specification with the data inlined, as JSON text
 * @param notes what the reader should know (rows cut by a limit, rendering failed)
 */
public record ChartOutput(Optional<Path> png, String vegaLite, List<String> notes) {
    public ChartOutput {
        requireNonNull(png, "png is null");
        requireNonNull(vegaLite, "vegaLite is null");
        notes = List.copyOf(notes);
    }
}
