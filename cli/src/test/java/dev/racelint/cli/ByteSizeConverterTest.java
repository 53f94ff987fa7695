package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class ByteSizeConverterTest {

    private final ByteSizeConverter converter = new ByteSizeConverter();

    @Test
    void plainAndSuffixedSizes() {
        assertThat(converter.convert("10485760")).isEqualTo(10_485_760L);
        assertThat(converter.convert("512k")).isEqualTo(512L * 1024);
        assertThat(converter.convert("10M")).isEqualTo(10L * 1024 * 1024);
        assertThat(converter.convert("1g")).isEqualTo(1024L * 1024 * 1024);
        assertThat(converter.convert("2kb")).isEqualTo(2048L);
    }

    @Test
    void badSizes() {
        for (String bad : new String[] {"", "k", "-1", "0", "ten", "1.5m", "99999999999999999999"}) {
            assertThatThrownBy(() -> converter.convert(bad)).as(bad).isInstanceOf(TypeConversionException.class);
        }
    }
}
