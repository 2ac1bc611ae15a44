package dev.sqlguard.app.internal.config;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.SqlGuardConfig.AuditConfig;
import dev.sqlguard.app.SqlGuardConfig.ModelConfig;
import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.app.internal.wiring.EngineRegistry;
import dev.sqlguard.app.internal.wiring.ModelRegistry;
import dev.sqlguard.app.internal.wiring.ServiceDiscovery;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.SensitiveNames;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.ports.PropertySpecs;
import dev.sqlguard.ports.model.ModelPortFactory;

/**
 * Turns {@code sqlguard.yaml} into a checked {@link SqlGuardConfig}. Every error names the file,
 * the line and the key path (for example {@code sources.claims.policy.limits.timeout}); values of
 * engine properties are never quoted, so secrets cannot leak through an error.
 */
public final class ConfigReader {
    static final long MAX_FILE_BYTES = 1L << 20;

    private static final Set<String> TOP_KEYS = Set.of("sources", "model", "audit");
    private static final Set<String> SOURCE_RESERVED = Set.of("engine", "policy");
    private static final Set<String> POLICY_KEYS = Set.of("tables", "defaultSchema", "functions", "tableFunctions", "redact", "limits",
            "rows", "masks");
    private static final Set<String> LIMIT_KEYS = Set.of("rows", "cellChars", "bytes", "timeout", "memory", "threads", "maxSqlLength");
    /** Model settings accepted when no model plug-in declares its own. */
    private static final Set<String> MODEL_KEYS = Set.of("baseUrl", "model", "apiKey");
    /** The model plug-in used when the configuration names none and several or none are found. */
    static final String DEFAULT_MODEL_PROVIDER = ModelRegistry.DEFAULT_PROVIDER;
    private static final Set<String> AUDIT_KEYS = Set.of("file", "onFailure");

    private final String fileName;
    /** The configuration file's folder: relative path settings are resolved against it. */
    private final Optional<Path> baseDirectory;
    private final Function<String, String> env;
    private final EngineRegistry engines;
    private final ModelRegistry models;

    private ConfigReader(String fileName, Optional<Path> baseDirectory, Function<String, String> env, EngineRegistry engines,
                         ModelRegistry models) {
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.baseDirectory = requireNonNull(baseDirectory, "baseDirectory is null");
        this.env = requireNonNull(env, "env is null");
        this.engines = requireNonNull(engines, "engines is null");
        this.models = requireNonNull(models, "models is null");
    }

    /** Reads and checks a configuration file; {@code env} resolves {@code ${VAR}}. */
    public static SqlGuardConfig read(Path file, Function<String, String> env, EngineRegistry engines) {
        return read(file, env, engines, ModelRegistry.discover(ConfigReader.class.getClassLoader(), ServiceDiscovery.WARN_TO_LOG));
    }

    public static SqlGuardConfig read(Path file, Function<String, String> env, EngineRegistry engines, ModelRegistry models) {
        String name = file.toString();
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw new ConfigException(name + ": the configuration file does not exist.");
        } catch (IOException | InvalidPathException e) {
            throw new ConfigException(name + ": the configuration file could not be read.");
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new ConfigException(name + ": the configuration file is larger than 1 MiB.");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ConfigException(name + ": the configuration file is not valid UTF-8.");
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1); // a byte-order mark some editors write
        }
        Optional<Path> folder = Optional.ofNullable(file.toAbsolutePath().getParent());
        return new ConfigReader(name, folder, env, engines, models).config(YamlReader.read(new StringReader(text), name));
    }

    /** Reads YAML that comes from no file: relative paths stay relative (to the working directory). */
    public static SqlGuardConfig read(Reader yaml, String fileName, Function<String, String> env, EngineRegistry engines,
                                      ModelRegistry models) {
        ConfigReader reader = new ConfigReader(fileName, Optional.empty(), env, engines, models);
        return reader.config(YamlReader.read(yaml, fileName));
    }

    private SqlGuardConfig config(YamlNode root) {
        requireKind(root, "(top level)", YamlNode.Kind.MAP);
        checkKeys(root, "", TOP_KEYS);
        YamlNode sourcesNode = root.map().get("sources");
        if (sourcesNode == null) {
            throw fail(root, "sources", "is missing; list at least one data source");
        }
        requireKind(sourcesNode, "sources", YamlNode.Kind.MAP);
        if (sourcesNode.map().isEmpty()) {
            throw fail(sourcesNode, "sources", "lists no data source");
        }
        Map<String, SourceConfig> sources = new LinkedHashMap<>();
        sourcesNode.map().forEach((id, node) -> sources.put(id, source(id, node, sourcesNode.lineOf(id))));
        Optional<ModelConfig> model = Optional.ofNullable(root.map().get("model")).map(this::model);
        AuditConfig audit = Optional.ofNullable(root.map().get("audit")).map(this::audit).orElse(AuditConfig.stderr());
        return new SqlGuardConfig(sources, model, audit);
    }

    /** @param line the line of the source's id */
    private SourceConfig source(String id, YamlNode node, int line) {
        String path = "sources." + YamlReader.printable(id);
        if (!SqlGuardConfig.isValidSourceId(id)) {
            throw fail(node, path, "is not a valid source id; use letters, digits, '_', '.' or '-' (at most 64)");
        }
        requireKind(node, path, YamlNode.Kind.MAP);
        YamlNode engineNode = node.map().get("engine");
        if (engineNode == null) {
            throw fail(node, path + ".engine", "is missing; name the engine, e.g. duckdb or mysql");
        }
        String engine = plainScalar(engineNode, path + ".engine");
        PropertySpecs settings = PropertySpecs.of(engines.require(engine, where(engineNode, path + ".engine")));
        Map<String, String> properties = new LinkedHashMap<>();
        Set<String> sensitive = new HashSet<>();
        for (Map.Entry<String, YamlNode> e : node.map().entrySet()) {
            String key = e.getKey();
            if (SOURCE_RESERVED.contains(key)) {
                continue;
            }
            String keyPath = path + "." + YamlReader.printable(key);
            if (!settings.accepts(key)) {
                Set<String> all = new TreeSet<>(settings.names());
                all.addAll(SOURCE_RESERVED);
                throw failAt(node.lineOf(key), keyPath, "is not a setting of engine '" + engine + "'; known: " + String.join(", ", all));
            }
            YamlNode value = e.getValue();
            if (!value.isScalar()) {
                throw fail(value, keyPath, "must be a single value, not " + value.describeKind());
            }
            EnvSubstitution.Result resolved = substitute(value, keyPath);
            properties.put(key, settings.isPath(key) ? resolvePath(value, keyPath, resolved.text()) : resolved.text());
            if (settings.isSensitive(key) || resolved.variables().stream().anyMatch(v -> SensitiveNames.isSensitive(v, Set.of()))) {
                sensitive.add(key);
            }
        }
        List<PropertySpec> missing = settings.missing(properties.keySet());
        if (!missing.isEmpty()) {
            String description = missing.get(0).description();
            throw fail(node, path + "." + missing.get(0).name(), "is missing; engine '" + engine + "' needs it: "
                    + (description.endsWith(".") ? description.substring(0, description.length() - 1) : description));
        }
        YamlNode policyNode = node.map().get("policy");
        GuardrailPolicy policy = policyNode == null || policyNode.kind() == YamlNode.Kind.NULL
                ? GuardrailPolicy.defaults() : policy(policyNode, path + ".policy");
        return new SourceConfig(id, engine, properties, sensitive, policy, Optional.of(origin(line, node, policyNode)));
    }

    /** The lines of a source's keys, for errors its engine finds when it starts. */
    private SqlGuardConfig.Origin origin(int line, YamlNode source, YamlNode policy) {
        Map<String, Integer> lines = new LinkedHashMap<>();
        lines.put("", line);
        source.map().keySet().forEach(key -> lines.put(key, source.lineOf(key)));
        if (policy != null && policy.kind() == YamlNode.Kind.MAP) {
            YamlNode tables = policy.map().get("tables");
            if (tables != null && tables.kind() == YamlNode.Kind.MAP) {
                lines.put("policy.tables", policy.lineOf("tables"));
                tables.map().keySet().forEach(table -> lines.put("policy.tables." + table, tables.lineOf(table)));
            }
            for (String list : List.of("functions", "tableFunctions")) {
                if (policy.map().containsKey(list)) {
                    lines.put("policy." + list, policy.lineOf(list));
                }
            }
            for (String section : List.of("rows", "masks")) {
                YamlNode entries = policy.map().get(section);
                if (entries != null && entries.kind() == YamlNode.Kind.MAP) {
                    lines.put("policy." + section, policy.lineOf(section));
                    entries.map().keySet().forEach(key -> lines.put("policy." + section + "." + key, entries.lineOf(key)));
                }
            }
        }
        return new SqlGuardConfig.Origin(fileName, lines);
    }

    private GuardrailPolicy policy(YamlNode node, String path) {
        requireKind(node, path, YamlNode.Kind.MAP);
        checkKeys(node, path + ".", POLICY_KEYS);
        Map<String, YamlNode> m = node.map();
        Optional<String> defaultSchema = Optional.ofNullable(m.get("defaultSchema")).map(n -> name(n, path + ".defaultSchema"));
        TableAllowlist tables = TableAllowlist.unrestricted();
        YamlNode tablesNode = m.get("tables");
        if (tablesNode != null) {
            tables = tables(tablesNode, path + ".tables", defaultSchema);
        } else if (defaultSchema.isPresent()) {
            throw fail(m.get("defaultSchema"), path + ".defaultSchema", "needs a 'tables' allowlist beside it");
        }
        Set<String> functions = nameSet(m.get("functions"), path + ".functions");
        Set<String> tableFunctions = nameSet(m.get("tableFunctions"), path + ".tableFunctions");
        Set<String> redact = nameSet(m.get("redact"), path + ".redact");
        Limits limits = m.containsKey("limits") ? limits(m.get("limits"), path + ".limits") : Limits.defaults();
        RowPolicy rows = rowPolicy(m.get("rows"), m.get("masks"), path, defaultSchema, tables);
        try {
            return new GuardrailPolicy(tables, functions, tableFunctions, redact, limits).withRows(rows);
        } catch (IllegalArgumentException e) {
            throw fail(node, path, "is invalid: " + e.getMessage());
        }
    }

    /**
     * {@code policy.rows} (table to predicate) and {@code policy.masks} ({@code table.column} to
     * expression), each entry checked on its own so that an error names its line. The texts are the
     * operator's SQL, taken as written: no {@code ${VAR}} substitution. With an allowlist, a filter or
     * mask must name an allowlisted table (and column): one that names no table the model can read is
     * a typo that would leave the table it meant unfiltered.
     */
    private RowPolicy rowPolicy(YamlNode rowsNode, YamlNode masksNode, String path, Optional<String> defaultSchema,
                                TableAllowlist tables) {
        Map<String, String> rows = sqlTexts(rowsNode, path + ".rows", "predicate");
        Map<String, String> masks = sqlTexts(masksNode, path + ".masks", "expression");
        for (Map.Entry<String, String> e : rows.entrySet()) {
            String keyPath = path + ".rows." + YamlReader.printable(e.getKey());
            RowPolicy one = rowPolicyEntry(rowsNode, e.getKey(), keyPath,
                    () -> RowPolicy.of(defaultSchema, Map.of(e.getKey(), e.getValue()), Map.of()));
            TableRef table = one.filters().keySet().iterator().next();
            if (tables.restricted() && !tables.allowsTable(table)) {
                throw failAt(rowsNode.lineOf(e.getKey()), keyPath, "names a table that policy.tables does not list");
            }
        }
        for (Map.Entry<String, String> e : masks.entrySet()) {
            String keyPath = path + ".masks." + YamlReader.printable(e.getKey());
            RowPolicy one = rowPolicyEntry(masksNode, e.getKey(), keyPath,
                    () -> RowPolicy.of(defaultSchema, Map.of(), Map.of(e.getKey(), e.getValue())));
            ColumnRef column = one.masks().keySet().iterator().next();
            if (tables.restricted() && !tables.allowsColumn(column.table(), column.column())) {
                throw failAt(masksNode.lineOf(e.getKey()), keyPath, "names a column that policy.tables does not allow");
            }
        }
        try {
            return RowPolicy.of(defaultSchema, rows, masks);
        } catch (IllegalArgumentException e) {
            // two keys naming one table or column (claims and main.claims)
            YamlNode where = rowsNode != null ? rowsNode : masksNode;
            throw fail(where, rowsNode != null ? path + ".rows" : path + ".masks", "is invalid: " + e.getMessage());
        }
    }

    private RowPolicy rowPolicyEntry(YamlNode section, String key, String keyPath, java.util.function.Supplier<RowPolicy> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw failAt(section.lineOf(key), keyPath, "is invalid: " + e.getMessage());
        }
    }

    /** A mapping of names to SQL text (a predicate or an expression), taken as written. */
    private Map<String, String> sqlTexts(YamlNode node, String path, String what) {
        if (node == null) {
            return Map.of();
        }
        requireKind(node, path, YamlNode.Kind.MAP);
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, YamlNode> e : node.map().entrySet()) {
            String keyPath = path + "." + YamlReader.printable(e.getKey());
            YamlNode value = e.getValue();
            if (!value.isScalar()) {
                throw fail(value, keyPath, "must be a SQL " + what + " (a single value), not " + value.describeKind()
                        + (value.kind() == YamlNode.Kind.NULL ? "; quote it (\"NULL\") for SQL NULL" : ""));
            }
            out.put(e.getKey(), value.text());
        }
        return out;
    }

    private TableAllowlist tables(YamlNode node, String path, Optional<String> defaultSchema) {
        requireKind(node, path, YamlNode.Kind.MAP);
        if (node.map().isEmpty()) {
            throw fail(node, path, "lists no table; list at least one, or leave 'tables' out");
        }
        Map<String, List<String>> tables = new LinkedHashMap<>();
        for (Map.Entry<String, YamlNode> e : node.map().entrySet()) {
            String tablePath = path + "." + YamlReader.printable(e.getKey());
            YamlNode columns = e.getValue();
            List<String> names = new ArrayList<>();
            if (columns.kind() == YamlNode.Kind.STRING && TableAllowlist.ALL_COLUMNS.equals(columns.text())) {
                names.add(TableAllowlist.ALL_COLUMNS);
            } else if (columns.kind() == YamlNode.Kind.LIST) {
                for (YamlNode column : columns.list()) {
                    names.add(name(column, tablePath));
                }
                if (names.isEmpty()) {
                    throw fail(columns, tablePath, "allows no column; list columns, or \"*\" for all");
                }
            } else {
                throw fail(columns, tablePath, "must be a list of column names, or \"*\" for all columns");
            }
            try {
                TableAllowlist.of(Map.of(e.getKey(), names));
            } catch (IllegalArgumentException | NullPointerException ex) {
                throw fail(columns, tablePath, "is not a valid table entry: " + ex.getMessage());
            }
            tables.put(e.getKey(), names);
        }
        try {
            return TableAllowlist.of(defaultSchema, tables);
        } catch (IllegalArgumentException e) {
            throw fail(node, path, "is invalid: " + e.getMessage());
        }
    }

    private Limits limits(YamlNode node, String path) {
        requireKind(node, path, YamlNode.Kind.MAP);
        checkKeys(node, path + ".", LIMIT_KEYS);
        Limits limits = Limits.defaults();
        for (Map.Entry<String, YamlNode> e : node.map().entrySet()) {
            String keyPath = path + "." + e.getKey();
            YamlNode value = e.getValue();
            limits = switch (e.getKey()) {
                case "rows" -> limits.withMaxRows(intIn(value, keyPath, 1, 1_000_000));
                case "cellChars" -> limits.withMaxCellChars(intIn(value, keyPath, 1, Integer.MAX_VALUE));
                case "bytes" -> limits.withMaxBytes(size(value, keyPath));
                case "timeout" -> limits.withTimeout(duration(value, keyPath));
                case "memory" -> limits.withMemoryBytes(size(value, keyPath));
                case "threads" -> limits.withThreads(intIn(value, keyPath, 1, 1024));
                case "maxSqlLength" -> limits.withMaxSqlLength(intIn(value, keyPath, 1, Integer.MAX_VALUE));
                default -> throw new IllegalStateException("unreachable");
            };
        }
        return limits;
    }

    private ModelConfig model(YamlNode node) {
        requireKind(node, "model", YamlNode.Kind.MAP);
        YamlNode providerNode = node.map().get("provider");
        String provider;
        Optional<ModelPortFactory> factory;
        if (providerNode != null) {
            provider = plainScalar(providerNode, "model.provider");
            factory = models.find(provider);
            if (factory.isEmpty()) {
                throw fail(providerNode, "model.provider", "unknown model provider '" + YamlReader.printable(provider)
                        + "'; providers found: " + (models.names().isEmpty() ? "none" : String.join(", ", models.names())));
            }
        } else {
            // the only provider on the class path, else the documented default
            provider = models.names().size() == 1 ? models.names().first() : DEFAULT_MODEL_PROVIDER;
            factory = models.find(provider);
        }
        Set<String> known = new TreeSet<>(factory.map(ModelPortFactory::propertyNames).orElse(Set.of()));
        if (known.isEmpty()) {
            known.addAll(MODEL_KEYS);
        }
        Set<String> sensitiveNames = factory.map(ModelPortFactory::sensitivePropertyNames).orElse(Set.of("apiKey"));
        Map<String, String> settings = new LinkedHashMap<>();
        Set<String> sensitive = new HashSet<>();
        for (Map.Entry<String, YamlNode> e : node.map().entrySet()) {
            String key = e.getKey();
            if (key.equals("provider")) {
                continue;
            }
            String keyPath = "model." + YamlReader.printable(key);
            if (!known.contains(key)) {
                Set<String> all = new TreeSet<>(known);
                all.add("provider");
                throw failAt(node.lineOf(key), keyPath, "is not a known key; expected one of: " + String.join(", ", all));
            }
            YamlNode value = e.getValue();
            if (!value.isScalar()) {
                throw fail(value, keyPath, "must be a single value, not " + value.describeKind());
            }
            EnvSubstitution.Result resolved = substitute(value, keyPath);
            settings.put(key, resolved.text());
            if (sensitiveNames.contains(key) || key.equals("apiKey") || SensitiveNames.isSensitive(key, Set.of())
                    || resolved.variables().stream().anyMatch(v -> SensitiveNames.isSensitive(v, Set.of()))) {
                sensitive.add(key);
            }
        }
        try {
            return new ModelConfig(provider, settings, sensitive);
        } catch (IllegalArgumentException e) {
            String key = e.getMessage().startsWith("baseUrl") ? "baseUrl" : "model";
            throw failAt(node.lineOf(key), "model." + key, "is invalid: " + e.getMessage());
        }
    }

    private AuditConfig audit(YamlNode node) {
        requireKind(node, "audit", YamlNode.Kind.MAP);
        checkKeys(node, "audit.", AUDIT_KEYS);
        QueryService.AuditFailure onFailure = QueryService.AuditFailure.REFUSE;
        YamlNode failureNode = node.map().get("onFailure");
        if (failureNode != null) {
            String value = text(failureNode, "audit.onFailure").trim().toLowerCase(java.util.Locale.ROOT);
            onFailure = switch (value) {
                case "refuse" -> QueryService.AuditFailure.REFUSE;
                case "continue" -> QueryService.AuditFailure.CONTINUE;
                default -> throw fail(failureNode, "audit.onFailure", "must be refuse (the default) or continue");
            };
        }
        YamlNode fileNode = node.map().get("file");
        if (fileNode == null || fileNode.kind() == YamlNode.Kind.NULL) {
            return new AuditConfig(Optional.empty(), onFailure);
        }
        String file = text(fileNode, "audit.file");
        if (file.isBlank()) {
            throw fail(fileNode, "audit.file", "is blank");
        }
        Path path;
        try {
            path = Path.of(resolvePath(fileNode, "audit.file", file));
        } catch (InvalidPathException e) {
            throw fail(fileNode, "audit.file", "is not a valid path");
        }
        if (!appendable(path.toAbsolutePath())) {
            throw fail(fileNode, "audit.file", "cannot be written: it is not a writable file, or its folder cannot be created");
        }
        return new AuditConfig(Optional.of(path), onFailure);
    }

    /**
     * Whether a file can be appended to (it exists and is a writable regular file), or created (the
     * nearest existing folder above it is a writable folder), without creating anything.
     */
    private static boolean appendable(Path file) {
        if (Files.exists(file)) {
            return Files.isRegularFile(file) && Files.isWritable(file);
        }
        for (Path folder = file.getParent(); folder != null; folder = folder.getParent()) {
            if (Files.exists(folder)) {
                return Files.isDirectory(folder) && Files.isWritable(folder);
            }
        }
        return false;
    }

    // ---- scalar helpers -------------------------------------------------------------------

    /** A path setting: relative to the configuration file's folder when it is relative ({@code ~} is not expanded). */
    private String resolvePath(YamlNode node, String path, String value) {
        if (value.isBlank() || baseDirectory.isEmpty()) {
            return value;
        }
        try {
            Path given = Path.of(value);
            return given.isAbsolute() ? value : baseDirectory.get().resolve(given).normalize().toString();
        } catch (InvalidPathException e) {
            throw fail(node, path, "is not a valid path");
        }
    }

    private int intIn(YamlNode node, String path, int min, int max) {
        String text = text(node, path).trim();
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw fail(node, path, "must be a whole number");
        }
        if (value < min || value > max) {
            throw fail(node, path, "must be between " + min + " and " + max);
        }
        return (int) value;
    }

    private long size(YamlNode node, String path) {
        return Units.bytes(text(node, path)).orElseThrow(() -> fail(node, path,
                "must be a positive size such as 1048576, 256MB or 1GiB"));
    }

    private Duration duration(YamlNode node, String path) {
        return Units.duration(text(node, path)).orElseThrow(() -> fail(node, path,
                "must be a positive duration such as 500ms, 10s or 1m"));
    }

    private Set<String> nameSet(YamlNode node, String path) {
        if (node == null) {
            return Set.of();
        }
        requireKind(node, path, YamlNode.Kind.LIST);
        Set<String> out = new LinkedHashSet<>();
        for (YamlNode item : node.list()) {
            out.add(name(item, path));
        }
        return out;
    }

    /** An identifier-like scalar: non-blank, printable, at most 256 characters. */
    private String name(YamlNode node, String path) {
        String value = text(node, path);
        if (value.isBlank() || value.length() > 256 || !value.chars().allMatch(c -> c >= 0x20 && c != 0x7f)) {
            throw fail(node, path, "holds an empty or invalid name");
        }
        return value;
    }

    /** A scalar as text, with {@code ${VAR}} substituted. */
    private String text(YamlNode node, String path) {
        if (!node.isScalar()) {
            throw fail(node, path, "must be a single value, not " + node.describeKind());
        }
        return substitute(node, path).text();
    }

    /** A scalar taken literally (no substitution), for names that select code such as the engine. */
    private String plainScalar(YamlNode node, String path) {
        if (node.kind() != YamlNode.Kind.STRING || node.text().isBlank()) {
            throw fail(node, path, "must be a name, not " + node.describeKind());
        }
        return node.text();
    }

    private EnvSubstitution.Result substitute(YamlNode node, String path) {
        try {
            return EnvSubstitution.apply(node.text(), env);
        } catch (EnvSubstitution.Problem e) {
            throw fail(node, path, e.getMessage());
        }
    }

    private void requireKind(YamlNode node, String path, YamlNode.Kind kind) {
        if (node.kind() != kind) {
            String expected = kind == YamlNode.Kind.MAP ? "a mapping of keys" : "a list";
            throw fail(node, path, "must be " + expected + ", not " + node.describeKind());
        }
    }

    private void checkKeys(YamlNode node, String prefix, Set<String> known) {
        for (Map.Entry<String, YamlNode> e : node.map().entrySet()) {
            if (!known.contains(e.getKey())) {
                throw failAt(node.lineOf(e.getKey()), prefix + YamlReader.printable(e.getKey()),
                        "is not a known key; expected one of: " + String.join(", ", new TreeSet<>(known)));
            }
        }
    }

    private String where(YamlNode node, String path) {
        return where(node.line(), path);
    }

    private String where(int line, String path) {
        return fileName + ", line " + line + ", " + path + ": ";
    }

    private ConfigException failAt(int line, String path, String problem) {
        return new ConfigException(where(line, path) + problem + ".");
    }

    private ConfigException fail(YamlNode node, String path, String problem) {
        return new ConfigException(where(node, path) + problem + ".");
    }
}
