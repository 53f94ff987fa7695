package dev.racelint.analyzer.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;

/**
 * Jackson set-up shared by the JSON and SARIF writers: pretty, byte-for-byte deterministic output
 * on every platform ({@code \n} line ends, two-space indent, {@code "key": value}, {@code []} and
 * {@code {}} for empty containers, map entries sorted by key, no timestamps).
 *
 * <p>Every character {@link ReportText#isUnsafe} calls unsafe is written as a {@code \}{@code uXXXX}
 * escape, not only the C0 controls Jackson escapes anyway: DEL, the C1 controls and the bidi
 * overrides too, so {@code cat report.json} or a JSON viewer shows no raw control or bidi
 * character from the scanned tree. The decoded values are unchanged.
 */
final class JsonSupport {

    private JsonSupport() {}

    static ObjectMapper newMapper() {
        ObjectMapper mapper = new ObjectMapper();
        mapper.configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
        mapper.configure(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, false);
        mapper.configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
        mapper.getFactory().configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        mapper.getFactory().setCharacterEscapes(new UnsafeCharacterEscapes());
        return mapper;
    }

    /** Jackson's standard escapes, plus {@code \}{@code uXXXX} for the other unsafe characters. */
    private static final class UnsafeCharacterEscapes extends CharacterEscapes {
        private static final int[] ASCII = standardAsciiEscapesForJSON();

        static {
            ASCII[0x7F] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ASCII;
        }

        /** Asked for each character above ASCII; surrogates come one half at a time and stay as they are. */
        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch > 0xFFFF || Character.isSurrogate((char) ch) || !ReportText.isUnsafe((char) ch)) {
                return null;
            }
            return new SerializedString(String.format(Locale.ROOT, "\\u%04X", ch));
        }
    }

    static ObjectWriter prettyWriter(ObjectMapper mapper) {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withSeparators(separators);
        printer.indentObjectsWith(indenter);
        printer.indentArraysWith(indenter);
        return mapper.writer(printer);
    }

    /** Writes {@code value} followed by a newline; leaves {@code out} open and flushed. */
    static void write(ObjectWriter writer, Object value, Writer out) throws IOException {
        writer.writeValue(out, value);
        out.write('\n');
        out.flush();
    }
}
