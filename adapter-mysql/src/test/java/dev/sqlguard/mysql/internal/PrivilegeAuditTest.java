package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class PrivilegeAuditTest {
    @Test
    void readOnlyGrantsAreQuiet() {
        assertThat(PrivilegeAudit.riskyPrivileges(List.of(
                "GRANT USAGE ON *.* TO `r`@`%` IDENTIFIED BY PASSWORD '*ABC'",
                "GRANT SELECT ON `sqlguard\\_t\\_%`.* TO `r`@`%`",
                "GRANT SELECT (`id`, `name`), SHOW VIEW ON `db`.`t` TO `r`@`%`"))).isEmpty();
    }

    @Test
    void writesFileSuperAllAndGrantOptionAreNamed() {
        assertThat(PrivilegeAudit.riskyPrivileges(List.of(
                "GRANT ALL PRIVILEGES ON *.* TO `a`@`%` WITH GRANT OPTION",
                "GRANT SELECT, INSERT, UPDATE (`x`) ON `db`.* TO `a`@`%`",
                "GRANT FILE, PROCESS, SUPER ON *.* TO `a`@`%`",
                "GRANT EXECUTE ON PROCEDURE `db`.`p` TO `a`@`%`",
                "GRANT `writer_role` TO `a`@`%`")))
                .containsExactly("ALL PRIVILEGES", "EXECUTE", "FILE", "GRANT OPTION", "INSERT", "PROCESS",
                        "ROLE (role grants are not audited)", "SUPER", "UPDATE");
    }
}
