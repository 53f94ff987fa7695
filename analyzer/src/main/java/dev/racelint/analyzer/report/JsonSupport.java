package dev.racelint.analyzer.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.Writer;

/**
 * Jackson set-up shared by the JSON and SARIF writers: pretty, byte-for-byte deterministic output
 * on every platform ({@code \n} line ends, two-space indent, {@code "key": value}, {@code []} and
 * {@code {}} for empty containers, map entries sorted by key, no timestamps).
 */
final class JsonSupport {

    private JsonSupport() {}

    static ObjectMapper newMapper() {
        ObjectMapper mapper = new ObjectMapper();
        mapper.configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
        mapper.configure(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, false);
        mapper.configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
        mapper.getFactory().configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        return mapper;
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
