package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.poi.ss.usermodel.BuiltinFormats;
import org.apache.poi.ss.usermodel.DateUtil;
import org.apache.poi.xssf.model.SharedStrings;
import org.apache.poi.xssf.model.StylesTable;
import org.apache.poi.xssf.usermodel.XSSFCellStyle;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Streams one worksheet's XML (SAX, constant memory per row) and hands each row to a sink with
 * typed cells: shared and inline strings, booleans, numbers, and numbers whose style is a date
 * format as dates. Error cells ({@code #DIV/0!}, ...) and blank strings count as empty.
 */
final class XlsxSheetHandler extends DefaultHandler {
    /** Excel's last column is XFD. */
    static final int MAX_COLUMNS = 16_384;

    interface RowSink {
        /** One row; {@code cells} is indexed by column, with null for empty cells. */
        void row(int rowNumber, List<XlsxCell> cells) throws SQLException;
    }

    /** What a cell style means for a number: a date, and the decimals a fixed format shows. */
    private record NumberStyle(boolean date, int decimalScale) {
    }

    private static final NumberStyle GENERAL = new NumberStyle(false, -1);

    private final SharedStrings strings;
    private final StylesTable styles;
    private final boolean date1904;
    private final RowSink sink;
    private final Map<Integer, NumberStyle> styleCache = new HashMap<>();
    private final List<XlsxCell> row = new ArrayList<>();
    private final StringBuilder text = new StringBuilder();

    private int rowNumber;
    private int column = -1;
    private String cellType;
    private int styleIndex;
    private boolean hasValue;
    private boolean inValue;
    private boolean inInline;
    private boolean inInlineText;
    private boolean inPhonetic;
    private long errorCells;

    XlsxSheetHandler(SharedStrings strings, StylesTable styles, boolean date1904, RowSink sink) {
        this.strings = requireNonNull(strings, "strings is null");
        this.styles = styles;
        this.date1904 = date1904;
        this.sink = requireNonNull(sink, "sink is null");
    }

    long errorCells() {
        return errorCells;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes attributes) throws SAXException {
        switch (name(localName, qName)) {
            case "row" -> {
                String r = attributes.getValue("r");
                rowNumber = r != null ? parsePositive(r, "row number") : rowNumber + 1;
                row.clear();
                column = -1;
            }
            case "c" -> {
                String ref = attributes.getValue("r");
                column = ref != null ? columnOf(ref) : column + 1;
                if (column >= MAX_COLUMNS) {
                    throw new SAXException("cell reference beyond the last Excel column");
                }
                cellType = attributes.getValue("t");
                String s = attributes.getValue("s");
                styleIndex = s != null ? parsePositive(s, "style index") : 0;
                hasValue = false;
                text.setLength(0);
            }
            case "v" -> {
                inValue = true;
                text.setLength(0);
            }
            case "is" -> {
                inInline = true;
                text.setLength(0);
            }
            case "rPh" -> inPhonetic = true;
            case "t" -> inInlineText = inInline && !inPhonetic;
            default -> {
            }
        }
    }

    @Override
    public void characters(char[] ch, int start, int length) {
        if (inValue || inInlineText) {
            text.append(ch, start, length);
        }
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
        switch (name(localName, qName)) {
            case "v" -> {
                inValue = false;
                hasValue = true;
            }
            case "t" -> inInlineText = false;
            case "rPh" -> inPhonetic = false;
            case "is" -> {
                inInline = false;
                hasValue = true;
            }
            case "c" -> {
                XlsxCell cell = hasValue ? toCell(text.toString()) : null;
                if (cell != null) {
                    while (row.size() <= column) {
                        row.add(null);
                    }
                    row.set(column, cell);
                }
            }
            case "row" -> {
                try {
                    sink.row(rowNumber, row);
                } catch (SQLException e) {
                    throw new SAXException(e);
                }
            }
            default -> {
            }
        }
    }

    private XlsxCell toCell(String raw) throws SAXException {
        String type = cellType == null ? "n" : cellType;
        switch (type) {
            case "s" -> {
                String value = strings.getItemAt(parsePositive(raw.trim(), "shared string index")).getString();
                return value == null || value.isBlank() ? null : XlsxCell.string(value);
            }
            case "inlineStr", "str" -> {
                return raw.isBlank() ? null : XlsxCell.string(raw);
            }
            case "b" -> {
                String v = raw.trim();
                return XlsxCell.bool(v.equals("1") || v.equalsIgnoreCase("true"));
            }
            case "e" -> {
                errorCells++;
                return null;
            }
            case "d" -> {
                return isoDate(raw.trim());
            }
            default -> {
                if (raw.isBlank()) {
                    return null;
                }
                double value;
                try {
                    value = Double.parseDouble(raw.trim());
                } catch (NumberFormatException e) {
                    throw new SAXException("a numeric cell holds no number", e);
                }
                if (Double.isNaN(value) || Double.isInfinite(value)) {
                    throw new SAXException("a numeric cell holds no finite number");
                }
                NumberStyle style = styleCache.computeIfAbsent(styleIndex, this::numberStyle);
                if (style.date() && DateUtil.isValidExcelDate(value)) {
                    return XlsxCell.date(DateUtil.getLocalDateTime(value, date1904));
                }
                return XlsxCell.number(value, style.decimalScale());
            }
        }
    }

    private static XlsxCell isoDate(String raw) throws SAXException {
        try {
            return raw.contains("T") ? XlsxCell.date(LocalDateTime.parse(raw))
                    : XlsxCell.date(LocalDate.parse(raw).atStartOfDay());
        } catch (DateTimeParseException e) {
            throw new SAXException("a date cell holds no ISO date", e);
        }
    }

    private NumberStyle numberStyle(int index) {
        if (styles == null || index >= styles.getNumCellStyles()) {
            return GENERAL;
        }
        XSSFCellStyle style = styles.getStyleAt(index);
        if (style == null) {
            return GENERAL;
        }
        short formatIndex = style.getDataFormat();
        String format = style.getDataFormatString();
        if (format == null) {
            format = BuiltinFormats.getBuiltinFormat(formatIndex);
        }
        if (format == null) {
            return GENERAL;
        }
        return new NumberStyle(DateUtil.isADateFormat(formatIndex, format), fixedDecimalScale(format));
    }

    /**
     * The number of decimals a fixed-decimal format such as {@code #,##0.00} or {@code "$"0.000}
     * always shows; 0 for integer formats; -1 for General, percentages, scientific, fractions,
     * text and optional decimals ({@code 0.0#}).
     */
    static int fixedDecimalScale(String format) {
        StringBuilder section = new StringBuilder();
        boolean quoted = false;
        boolean bracket = false;
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (quoted) {
                quoted = c != '"';
            } else if (bracket) {
                bracket = c != ']';
            } else if (c == '"') {
                quoted = true;
            } else if (c == '[') {
                bracket = true;
            } else if (c == '\\' || c == '_' || c == '*') {
                i++;
            } else if (c == ';') {
                break;
            } else {
                section.append(c);
            }
        }
        String s = section.toString();
        if (s.equalsIgnoreCase("General") || s.chars().anyMatch(c -> "%Ee/@?".indexOf(c) >= 0)) {
            return -1;
        }
        int dot = s.indexOf('.');
        if (dot < 0) {
            return s.indexOf('0') >= 0 || s.indexOf('#') >= 0 ? 0 : -1;
        }
        int zeros = 0;
        int i = dot + 1;
        while (i < s.length() && s.charAt(i) == '0') {
            zeros++;
            i++;
        }
        return i < s.length() && s.charAt(i) == '#' ? -1 : zeros;
    }

    /** Zero-based column of a reference such as {@code AB12}. */
    static int columnOf(String reference) throws SAXException {
        int column = 0;
        int letters = 0;
        for (int i = 0; i < reference.length(); i++) {
            char c = Character.toUpperCase(reference.charAt(i));
            if (c < 'A' || c > 'Z') {
                break;
            }
            column = column * 26 + (c - 'A' + 1);
            letters++;
            if (letters > 3) {
                throw new SAXException("cell reference beyond the last Excel column");
            }
        }
        if (letters == 0) {
            throw new SAXException("a cell reference has no column");
        }
        return column - 1;
    }

    private static int parsePositive(String value, String what) throws SAXException {
        try {
            int n = Integer.parseInt(value);
            if (n < 0) {
                throw new SAXException("negative " + what);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new SAXException("invalid " + what, e);
        }
    }

    private static String name(String localName, String qName) {
        if (localName != null && !localName.isEmpty()) {
            return localName;
        }
        int colon = qName.indexOf(':');
        return colon < 0 ? qName : qName.substring(colon + 1);
    }
}
