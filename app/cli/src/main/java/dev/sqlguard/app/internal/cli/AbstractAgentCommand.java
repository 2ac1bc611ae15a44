package dev.sqlguard.app.internal.cli;

import java.nio.file.Path;
import java.util.List;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.GuardedCaller;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.agent.AgentSettings;
import dev.sqlguard.app.agent.AnalystPlanner;
import dev.sqlguard.app.internal.demo.DemoDatabase;
import dev.sqlguard.app.internal.wiring.ModelRegistry;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.model.ModelPort;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The flow shared by {@code ask} and {@code eval}: find the configuration, build the model port
 * (the {@code model:} section, else the {@code SQLGUARD_MODEL*} environment variables), wire one
 * {@link SqlGuard} and build the planner on its guarded path and audit sink.
 */
abstract class AbstractAgentCommand extends CliCommand {
    @Mixin
    ConfigOptions configOptions;

    @Option(names = "--source", paramLabel = "NAME", description = "The one source to use; default: every source for ask, 'demo' for eval.")
    String source;

    @Mixin
    AttributeOptions attributeOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** The caller the agent's statements run as (--attribute, SQLGUARD_ATTRIBUTE_*); set once the facade is open. */
    GuardedCaller caller;

    @Option(names = "--charts", paramLabel = "DIR",
            description = "Where charts are written as PNG files. Default: the 'charts' folder of the sqlguard cache.")
    Path charts;

    AbstractAgentCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public final Integer call() {
        java.util.Map<String, String> attributes = attributeOptions.resolve(spec, ctx.env());
        try (Configs.Resolved resolved = Configs.resolveOrExit(configOptions, ctx)) {
            return callWith(resolved, attributes);
        }
    }

    private int callWith(Configs.Resolved resolved, java.util.Map<String, String> attributes) {
        ModelPort model;
        try {
            model = ModelRegistry.discover(resolved.loader(), ctx::warn)
                    .create(resolved.config().model(), ctx.env());
        } catch (ConfigException e) {
            ctx.warn(e.getMessage());
            return ExitCodes.USAGE;
        } catch (GuardException e) {
            // a configuration error already says which setting or variable is missing: say it once
            ctx.warn("no usable model endpoint: " + e.safeMessage() + (e.code() == ErrorCode.CONFIGURATION_ERROR ? ""
                    : " Configure the model: section or set SQLGUARD_MODEL_BASE_URL and SQLGUARD_MODEL."));
            return e.code() == ErrorCode.CONFIGURATION_ERROR ? ExitCodes.USAGE : ExitCodes.ERROR;
        }
        SqlGuard guard = SqlGuardModule.open(resolved, ctx);
        try (guard) {
            caller = guard.withAttributes(attributes);
            List<String> sourceIds = sourceIds(guard);
            if (sourceIds.isEmpty()) {
                return ExitCodes.USAGE;
            }
            Path chartDirectory = charts != null ? ctx.cwd().resolve(charts)
                    : DemoDatabase.cacheDirectory(ctx.env()).resolve("charts");
            AnalystPlanner planner;
            try {
                planner = AnalystPlanner.of(caller.guardedPath(sourceIds), model, AgentSettings.defaults(chartDirectory));
            } catch (ConfigException e) {
                ctx.warn(e.getMessage());
                return ExitCodes.USAGE;
            } catch (GuardException e) {
                ctx.warn(e.safeMessage());
                return e.code() == ErrorCode.UNKNOWN_SOURCE || e.code() == ErrorCode.CONFIGURATION_ERROR
                        ? ExitCodes.USAGE : ExitCodes.ERROR;
            }
            return run(guard, planner, sourceIds);
        }
    }

    /** The sources the planner may use; empty (after a warning) for a usage error. */
    abstract List<String> sourceIds(SqlGuard guard);

    abstract int run(SqlGuard guard, AnalystPlanner planner, List<String> sourceIds);

    /** {@code --source} when given (checked later), else {@code fallback}. */
    final List<String> sourceOr(List<String> fallback) {
        return source != null ? List.of(source) : fallback;
    }
}
