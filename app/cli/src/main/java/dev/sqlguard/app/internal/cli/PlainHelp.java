package dev.sqlguard.app.internal.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * {@code sqlguard --help} without building the command tree: picocli reads every command's
 * annotations reflectively to print help (about 1,400 classes, most of the command's start-up),
 * so where the help would be printed without colours anyway, the text is the one picocli prints,
 * kept as a resource. {@code CliTest.thePlainHelpIsExactlyPicocliHelpWithoutColours} fails when a
 * command's description changes and the resource does not.
 */
final class PlainHelp {
    static final String RESOURCE = "help.txt";

    private PlainHelp() {
    }

    /**
     * Whether this command line is {@code --help} (or {@code -h}) alone, printed where picocli would
     * print no colours: output not to a terminal, and neither {@code picocli.ansi} nor
     * {@code CLICOLOR_FORCE} asking for colours.
     */
    static boolean applies(String[] args, boolean terminal, Map<String, String> env) {
        return args.length == 1 && ("--help".equals(args[0]) || "-h".equals(args[0])) && !terminal
                && System.getProperty("picocli.ansi") == null && env.get("CLICOLOR_FORCE") == null;
    }

    /** Copies the help text to {@code out}. */
    static void write(OutputStream out) throws IOException {
        try (InputStream text = PlainHelp.class.getResourceAsStream(RESOURCE)) {
            if (text == null) {
                throw new IOException("the help text is missing from the jar");
            }
            text.transferTo(out);
        }
        out.flush();
    }
}
