package dev.sqlguard.duckdb.ingest.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The file formats the loader reads, and the reader each one goes through. */
public enum InputFormat {
    CSV("csv", true),
    TSV("tsv", true),
    PARQUET("parquet", false),
    JSON("json", true),
    NDJSON("ndjson", true),
    XLSX("xlsx", false);

    private final String optionName;
    private final boolean gzipAllowed;

    InputFormat(String optionName, boolean gzipAllowed) {
        this.optionName = optionName;
        this.gzipAllowed = gzipAllowed;
    }

    public String optionName() {
        return optionName;
    }

    /** Whether DuckDB reads the format (as opposed to Java reading it and appending rows). */
    public boolean readByDuckDb() {
        return this != XLSX;
    }

    public boolean usesHeader() {
        return this == CSV || this == TSV || this == XLSX;
    }

    public boolean usesDelimiter() {
        return this == CSV || this == TSV;
    }

    public boolean usesSheet() {
        return this == XLSX;
    }

    /** The format named by the {@code format} option; {@code jsonl} is an alias of ndjson. */
    public static Optional<InputFormat> fromOption(String value) {
        String name = value.trim().toLowerCase(Locale.ROOT);
        if (name.equals("jsonl")) {
            return Optional.of(NDJSON);
        }
        return Arrays.stream(values()).filter(f -> f.optionName.equals(name)).findFirst();
    }

    /** The format a file name implies, e.g. {@code a.csv}, {@code a.jsonl}, {@code a.csv.gz}. */
    public static Optional<InputFormat> fromFileName(String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
        boolean gzip = name.endsWith(".gz");
        if (gzip) {
            name = name.substring(0, name.length() - 3);
        }
        int dot = name.lastIndexOf('.');
        if (dot < 0) {
            return Optional.empty();
        }
        Optional<InputFormat> format = fromOption(name.substring(dot + 1));
        return gzip ? format.filter(f -> f.gzipAllowed) : format;
    }

    public static String supportedList() {
        return Arrays.stream(values()).map(f -> f.optionName).collect(Collectors.joining(", "))
                + ", jsonl (.gz for the text formats)";
    }

    @Override
    public String toString() {
        return name();
    }
}
