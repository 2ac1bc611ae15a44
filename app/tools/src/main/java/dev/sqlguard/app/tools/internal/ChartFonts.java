package dev.sqlguard.app.tools.internal;

import java.awt.Font;
import java.awt.GraphicsEnvironment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Fonts that can draw a chart's text. JFreeChart's theme asks for Tahoma, which the JVM replaces by
 * its Dialog font; where Dialog lacks a script (CJK on a machine with DejaVu only), its text is
 * drawn as boxes. Each title, axis label, category label and legend item keeps its font when that
 * font can draw the text, else gets the first installed family that can (sans-serif families
 * first), else keeps its font: the tool result then says that some labels cannot be drawn.
 */
final class ChartFonts {
    /** The note of a chart whose text no installed font can draw in full. */
    static final String MISSING_GLYPHS = "Some labels use characters that no font installed on the server can draw (for example"
            + " Chinese, Japanese or Korean text); the PNG shows them as boxes. Installing a font that covers them (such as"
            + " Noto Sans CJK) fixes it; the Vega-Lite specification is not affected.";

    private static final Set<String> LOGICAL = Set.of("dialog", "dialoginput", "monospaced", "sansserif", "serif");

    private final List<Font> candidates;

    ChartFonts(List<Font> candidates) {
        this.candidates = List.copyOf(candidates);
    }

    /** The installed families, read once (sans-serif before others, then by name). */
    static ChartFonts installed() {
        return Installed.FONTS;
    }

    private static final class Installed {
        static final ChartFonts FONTS = new ChartFonts(families());

        private static List<Font> families() {
            List<Font> fonts = new ArrayList<>();
            try {
                for (String family : GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames(Locale.ROOT)) {
                    if (!LOGICAL.contains(family.toLowerCase(Locale.ROOT))) {
                        fonts.add(new Font(family, Font.PLAIN, 12));
                    }
                }
            } catch (RuntimeException | LinkageError e) {
                return List.of(); // no font system: every label keeps its font
            }
            fonts.sort(Comparator.comparing((Font f) -> !sansSerif(f.getFamily(Locale.ROOT))).thenComparing(f -> f.getFamily(Locale.ROOT)));
            return fonts;
        }

        private static boolean sansSerif(String family) {
            String name = family.toLowerCase(Locale.ROOT);
            return (name.contains("sans") || name.contains("gothic") || name.contains("hei")) && !name.contains("mono");
        }
    }

    /** {@code base} when it can draw {@code text}, else a candidate that can (same style and size), else {@code base}. */
    Font forText(Font base, String text) {
        if (base.canDisplayUpTo(text) == -1) {
            return base;
        }
        for (Font candidate : candidates) {
            if (candidate.canDisplayUpTo(text) == -1) {
                return candidate.deriveFont(base.getStyle(), base.getSize2D());
            }
        }
        return base;
    }

    /** Whether the JVM's default font or some candidate can draw each of {@code texts}. */
    boolean canDrawAll(List<String> texts) {
        Font base = new Font(Font.DIALOG, Font.PLAIN, 12);
        return texts.stream().allMatch(text -> forText(base, text).canDisplayUpTo(text) == -1);
    }
}
