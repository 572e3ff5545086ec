package dev.ssdpulse.streams.report;

import java.util.Objects;
import java.util.function.Function;

/**
 * One column of a report table: its name, with the unit as a suffix ({@code _us}, {@code _s}, {@code _bytes},
 * {@code _mb_per_s}), used as the CSV header and the JSON key, and how a row gives its cell: a Long, Integer,
 * Double or String, or null for an empty cell.
 *
 * @param textDecimals decimals of a Double cell in the text rendering (people read "2403.7", scripts get every
 *                     digit in CSV and JSON); negative: as in CSV
 */
public record Column<R>(String name, Function<R, Object> value, int textDecimals) {
    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }

    public static <R> Column<R> of(String name, Function<R, Object> value) {
        return new Column<>(name, value, -1);
    }

    public static <R> Column<R> of(String name, Function<R, Object> value, int textDecimals) {
        return new Column<>(name, value, textDecimals);
    }
}
