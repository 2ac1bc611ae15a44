package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class JdbcValuesTest {
    @Test
    void javaSqlTemporalsBecomeJavaTime() throws SQLException {
        assertThat(JdbcValues.standard(Timestamp.valueOf("2024-01-31 10:00:00"))).isEqualTo(LocalDateTime.of(2024, 1, 31, 10, 0));
        assertThat(JdbcValues.standard(Date.valueOf("2024-01-31"))).isEqualTo(LocalDate.of(2024, 1, 31));
        assertThat(JdbcValues.standard(Time.valueOf("10:00:05"))).isEqualTo(LocalTime.of(10, 0, 5));
    }

    @Test
    void nestedValuesAreConvertedAtEveryLevelThroughTheAdaptersConverter() throws SQLException {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("when", Date.valueOf("2024-01-31"));
        map.put("tag", "x");
        Object out = JdbcValues.convert(map, value -> value instanceof String s ? s.toUpperCase() : JdbcValues.standard(value));
        assertThat(out).isEqualTo(Map.of("WHEN", LocalDate.of(2024, 1, 31), "TAG", "X"));
    }

    @Test
    void otherValuesPassUnchanged() throws SQLException {
        assertThat(JdbcValues.standard(null)).isNull();
        assertThat(JdbcValues.standard(42L)).isEqualTo(42L);
        assertThat(JdbcValues.standard(List.of(1))).isEqualTo(List.of(1));
    }

    @Test
    void typeNamesAreTheJdbcNamesOrOther() {
        assertThat(JdbcValues.typeName(java.sql.Types.VARCHAR)).isEqualTo("VARCHAR");
        assertThat(JdbcValues.typeName(java.sql.Types.TIMESTAMP_WITH_TIMEZONE)).isEqualTo("TIMESTAMP_WITH_TIMEZONE");
        assertThat(JdbcValues.typeName(-12345)).isEqualTo("OTHER");
    }
}
