package dev.racelint.analyzer.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.RootLocale;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** A host's locale (the Maven build's) is the root locale while racelint works, and the host's again after. */
class RootLocaleTest {

    @Test
    void rootWhileEnteredAndTheHostsCategoriesAfter() {
        Locale general = Locale.getDefault();
        Locale display = Locale.getDefault(Locale.Category.DISPLAY);
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        Locale turkish = Locale.forLanguageTag("tr-TR");
        Locale german = Locale.forLanguageTag("de-DE");
        try {
            Locale.setDefault(turkish);
            Locale.setDefault(Locale.Category.DISPLAY, turkish);
            Locale.setDefault(Locale.Category.FORMAT, german);
            try (RootLocale ignored = RootLocale.enter()) {
                assertThat("INT".toLowerCase()).isEqualTo("int");
                assertThat(Locale.getDefault(Locale.Category.FORMAT)).isEqualTo(Locale.ROOT);
                assertThat(String.format("%,d", 1234567)).isEqualTo("1,234,567");
            }
            assertThat(Locale.getDefault()).isEqualTo(turkish);
            assertThat("INT".toLowerCase()).isEqualTo("\u0131nt");
            assertThat(Locale.getDefault(Locale.Category.DISPLAY)).isEqualTo(turkish);
            assertThat(Locale.getDefault(Locale.Category.FORMAT)).isEqualTo(german);
        } finally {
            Locale.setDefault(general);
            Locale.setDefault(Locale.Category.DISPLAY, display);
            Locale.setDefault(Locale.Category.FORMAT, format);
        }
    }
}
