package dev.sqlguard.app.internal.cli;

/**
 * How many terminal columns text takes: East Asian wide and full-width characters (CJK, Hangul,
 * full-width forms, most emoji) take two, combining marks and zero-width characters none, the
 * rest one. Enough to keep a table's columns aligned; it is not a full Unicode width table.
 */
final class DisplayWidth {
    private DisplayWidth() {
    }

    static int of(String s) {
        int width = 0;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            width += of(c);
            i += Character.charCount(c);
        }
        return width;
    }

    /** The longest prefix of {@code s} at most {@code columns} wide. */
    static String cut(String s, int columns) {
        int width = 0;
        int i = 0;
        while (i < s.length()) {
            int c = s.codePointAt(i);
            int w = of(c);
            if (width + w > columns) {
                break;
            }
            width += w;
            i += Character.charCount(c);
        }
        return s.substring(0, i);
    }

    static int of(int c) {
        int type = Character.getType(c);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
                || c == 0x200B) {
            return 0;
        }
        boolean wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF)
                || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF)
                || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F)
                || (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F)
                || (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
        return wide ? 2 : 1;
    }
}
