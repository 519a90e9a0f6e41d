"""The reproductions' figures, as matplotlib Figures (attention.figures: Jupyter shows them
inline, nothing global changes), each also written to a file when given a path. matplotlib is
imported by the functions here, when a figure is drawn."""

MODEL_STYLES = {"plain": "o-", "attention": "s-"}


def plot_lengths(result, path=None):
    """compare-lengths (Bahdanau et al., 2015, Fig. 2): exact match and BLEU against source
    length, one line per model, the lengths longer than any training source shaded.
    `result`: what seq2seq.papers.lengths.compare_lengths returns."""
    from attention.figures import Figure, save

    longest = result["trained_lengths"][1]
    figure = Figure(figsize=(10, 3.8), layout="constrained")
    axes = figure.subplots(1, 2)
    for ax, key, label in zip(axes, ("exact_match", "bleu"), ("exact match", "BLEU")):
        lengths = []
        for name, style in MODEL_STYLES.items():
            points = sorted((int(n), v) for n, v in result[name][key].items() if v is not None)
            lengths += [n for n, _ in points]
            ax.plot([n for n, _ in points], [v for _, v in points], style, label=name,
                    markersize=4)
        if lengths and max(lengths) > longest:
            ax.axvspan(longest + 0.5, max(lengths) + 0.5, color="grey", alpha=0.15,
                       label="longer than any\ntraining source")
        ax.set_xlabel(f"source length ({'words' if result['task'] == 'toy-ja-en' else 'tokens'})")
        ax.set_ylabel(label)
        ax.set_ylim(0, 1.02)
    axes[0].legend(loc="lower left", fontsize="small")
    figure.suptitle(f"{result['task']}: the plain encoder-decoder against attention, "
                    "by source length (held-out sentences)")
    if path is not None:
        save(figure, path, dpi=90)
    return figure
