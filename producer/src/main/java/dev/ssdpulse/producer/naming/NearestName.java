package dev.ssdpulse.producer.naming;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name a mistyped one was most likely meant to be, for "did you mean" hints on presets and workloads.
 * A name that starts or ends like a known one, or contains it, wins ({@code sata-240} for {@code sata-240gb}); else
 * the smallest edit distance (insertions, deletions, substitutions, transpositions of neighbours), when it is at most
 * a third of the longer name, so that an unrelated word gets no suggestion.
 */
public final class NearestName {
    private NearestName() {}

    public static Optional<String> among(String typed, Collection<String> known) {
        String t = typed.toLowerCase(Locale.ROOT).trim();
        if (t.isEmpty()) {
            return Optional.empty();
        }
        String best = null;
        int bestScore = Integer.MAX_VALUE;
        for (String name : known) {
            String n = name.toLowerCase(Locale.ROOT);
            int score;
            if (t.length() >= 3 && (n.startsWith(t) || n.endsWith(t) || n.contains(t) || t.contains(n))) {
                score = Math.abs(n.length() - t.length()) - 1000; // ahead of every edit distance
            } else {
                int d = distance(t, n);
                score = d * 3 <= Math.max(t.length(), n.length()) ? d : Integer.MAX_VALUE;
            }
            if (score < bestScore) {
                bestScore = score;
                best = name;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
