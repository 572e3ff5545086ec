package dev.ssdpulse.streams.report;

import java.util.Objects;
import java.util.function.Function;

/**
 * One column of a report table: its name, with the unit as a suffix ({@code _us}, {@code _s}, {@code _bytes},
 * {@code _mb_per_s}), used as the CSV and text header, and how a row gives its cell: a Long, Integer, Double,
 * Boolean or String, or null for an empty cell. In JSON the same cell has a key of its own (the API's camelCase
 * spelling, the name by default; {@code group/key} nests it in the object {@code group}) and may be given in
 * another unit there (the key names it: {@code latencyNs/p50}, {@code latencyMs/p50}).
 *
 * @param name         CSV and text header; null: a column of the JSON only
 * @param textDecimals decimals of a Double cell in the text rendering (people read "2403.7", scripts get every
 *                     digit in CSV and JSON); negative: as in CSV
 * @param jsonKey      key (path) in JSON; null: not in JSON
 * @param jsonValue    the cell in JSON (also a JsonNode, List or Map for nested values; an empty Optional leaves
 *                     the key out)
 */
public record Column<R>(
        String name, Function<R, Object> value, int textDecimals, String jsonKey, Function<R, Object> jsonValue) {
    public Column {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(jsonValue, "jsonValue");
        if (name == null && jsonKey == null) {
            throw new IllegalArgumentException("a column needs a name or a JSON key");
        }
    }

    public static <R> Column<R> of(String name, Function<R, Object> value) {
        return of(name, value, -1);
    }

    public static <R> Column<R> of(String name, Function<R, Object> value, int textDecimals) {
        return new Column<>(Objects.requireNonNull(name, "name"), value, textDecimals, name, value);
    }

    /** A column whose JSON key is not its name ("io_count" and "ioCount"). */
    public static <R> Column<R> of(String name, String jsonKey, Function<R, Object> value) {
        return of(name, jsonKey, value, -1);
    }

    public static <R> Column<R> of(String name, String jsonKey, Function<R, Object> value, int textDecimals) {
        return new Column<>(Objects.requireNonNull(name, "name"), value, textDecimals, jsonKey, value);
    }

    /** A cell of the JSON only (e.g. a nested array that has no place in CSV). */
    public static <R> Column<R> jsonOnly(String jsonKey, Function<R, Object> jsonValue) {
        return new Column<>(null, jsonValue, -1, jsonKey, jsonValue);
    }

    /** The same quantity under another key and in another unit in JSON. */
    public Column<R> json(String key, Function<R, Object> valueInJson) {
        return new Column<>(name, value, textDecimals, key, valueInJson);
    }

    /** This column in CSV and text only (left out of JSON). */
    public Column<R> withoutJson() {
        return new Column<>(name, value, textDecimals, null, jsonValue);
    }

    /** This column in JSON only (left out of CSV and text). */
    public Column<R> jsonOnly() {
        return new Column<>(null, value, textDecimals, jsonKey, jsonValue);
    }
}
