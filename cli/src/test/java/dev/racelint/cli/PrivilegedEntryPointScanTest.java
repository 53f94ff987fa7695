package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spring Security's {@code @PreAuthorize} end to end (its jar is not among the fixtures' dependencies, so
 * the sources here are only parsed): an admin-only check-then-act is a note a default scan leaves out; one
 * that asks only for a logged-in caller stays an error.
 */
class PrivilegedEntryPointScanTest {

    @TempDir
    Path dir;

    private void menuScreen(String guard) {
        Sources.write(dir, "src/demo/MenuMapper.java", """
                package demo;

                import org.apache.ibatis.annotations.Insert;
                import org.apache.ibatis.annotations.Mapper;
                import org.apache.ibatis.annotations.Param;
                import org.apache.ibatis.annotations.Select;

                @Mapper
                public interface MenuMapper {
                    @Select("SELECT COUNT(*) FROM menus WHERE menu_name = #{name}")
                    int countByName(@Param("name") String name);

                    @Insert("INSERT INTO menus (menu_name) VALUES (#{name})")
                    int insert(@Param("name") String name);
                }
                """);
        Sources.write(dir, "src/demo/MenuController.java", """
                package demo;

                import org.springframework.security.access.prepost.PreAuthorize;
                import org.springframework.web.bind.annotation.PostMapping;
                import org.springframework.web.bind.annotation.RequestParam;
                import org.springframework.web.bind.annotation.RestController;

                @RestController
                public class MenuController {
                    private final MenuMapper menus;

                    public MenuController(MenuMapper menus) {
                        this.menus = menus;
                    }

                    @PreAuthorize("%s")
                    @PostMapping("/menus")
                    public String add(@RequestParam String name) {
                        if (menus.countByName(name) > 0) {
                            return "exists";
                        }
                        menus.insert(name);
                        return "ok";
                    }
                }
                """.formatted(guard));
    }

    @Test
    void anAdminOnlyScreenIsANoteLeftOutByDefault() {
        menuScreen("@ss.hasPermi('system:menu:add')");

        Cli.Run byDefault = run("scan", dir.toString(), "--no-cache", "--rules", "check-then-act");
        Cli.Run all = run("scan", dir.toString(), "--no-cache", "--rules", "check-then-act", "--min-level", "note");

        assertThat(byDefault.report()).as(byDefault.toString()).doesNotContain("[check-then-act]")
                .contains("No findings in 2 files; 1 note not shown");
        assertThat(byDefault.exitCode()).isZero();
        assertThat(all.report()).as(all.toString()).contains("note [check-then-act]")
                .contains("Reported as a note: only callers holding system:menu:add reach it (@PreAuthorize at "
                        + "MenuController.java:16); two such callers must race.");
    }

    @Test
    void aScreenForEveryLoggedInUserStaysAnError() {
        menuScreen("isAuthenticated()");

        Cli.Run run = run("scan", dir.toString(), "--no-cache", "--rules", "check-then-act");

        assertThat(run.report()).as(run.toString()).contains("error [check-then-act]").doesNotContain("Reported as a note");
    }
}
