package dev.sqlguard.duckdb.archfixture;

import org.apache.poi.ss.usermodel.Workbook;

/** Deliberately bad: the DuckDB engine reading a spreadsheet with Apache POI. */
public final class DuckDbClassUsingPoi {
    public int sheets(Workbook workbook) {
        return workbook.getNumberOfSheets();
    }
}
