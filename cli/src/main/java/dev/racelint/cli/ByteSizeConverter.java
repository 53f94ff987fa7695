package dev.racelint.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A byte count: {@code 10485760}, or with a binary suffix {@code 512k}, {@code 10m}, {@code 1g}. */
final class ByteSizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (text.endsWith("b")) {
            text = text.substring(0, text.length() - 1);
        }
        if (!text.isEmpty()) {
            switch (text.charAt(text.length() - 1)) {
                case 'k' -> unit = 1024L;
                case 'm' -> unit = 1024L * 1024;
                case 'g' -> unit = 1024L * 1024 * 1024;
                default -> unit = 1;
            }
            if (unit > 1) {
                text = text.substring(0, text.length() - 1);
            }
        }
        try {
            long n = Long.parseLong(text);
            if (n <= 0) {
                throw new TypeConversionException("'" + value + "' is not a positive size in bytes");
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new TypeConversionException("'" + value + "' is not a size in bytes (e.g. 10485760, 512k, 10m)");
        }
    }
}
