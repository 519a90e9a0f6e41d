"""The reproductions' figures, as matplotlib Figures (attention.figures: Jupyter shows them
inline, nothing global changes), each also written to a file when given a path: over a file
there only if an earlier figure wrote it, or with `overwrite` (attention.figures.save; the
experiments pass it, as they have claimed their folder first). matplotlib is imported by the
functions here, when a figure is drawn. Text from data (a translation, a task's file name) is
drawn as written (attention.figures.PLAIN), never as mathtext."""

MODEL_STYLES = {"plain": "o-", "attention": "s-"}


def plot_lengths(result, path=None, overwrite=False):
    """compare-lengths (Bahdanau et al., 2015, Fig. 2): exact match and BLEU against source
    length, one line per model, the lengths longer than any training source shaded.
    `result`: what seq2seq.papers.lengths.compare_lengths returns."""
    from attention.figures import PLAIN, Figure, save

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
                    "by source length (held-out sentences)", **PLAIN)
    if path is not None:
        save(figure, path, dpi=90, overwrite=overwrite)
    return figure


def plot_translations(translations, path=None, title=None, titles=None, columns=2,
                      overwrite=False):
    """One heatmap per translation (seq2seq.translation.Translation), each with its own source
    tokens along the x axis and output tokens down the y axis, in a grid of `columns`, with one
    colour bar: the matrices of Bahdanau et al.'s Fig. 3."""
    import math

    import matplotlib

    from attention.figures import (
        PLAIN,
        Figure,
        draw_weights,
        font_family,
        quiet_glyphs,
        save,
        visible,
    )

    if not translations:
        raise ValueError("no translation to draw")
    columns = min(columns, len(translations))
    rows = math.ceil(len(translations) / columns)
    labels = [([visible(t) for t in x.source_tokens], [visible(t) for t in x.tokens])
              for x in translations]
    family = font_family([token for pair in labels for side in pair for token in side]
                         + [title or ""] + list(titles or []))
    widest = max(len(x.source_tokens) for x in translations)
    tallest = max(len(x.tokens) for x in translations)
    with quiet_glyphs(), matplotlib.rc_context({"font.family": family}):
        figure = Figure(figsize=(columns * (1.2 + 0.32 * widest) + 1, rows * (1.0 + 0.3 * tallest)),
                        layout="constrained")
        grid = figure.subplots(rows, columns, squeeze=False)
        for i, (ax, translation, (source, output)) in enumerate(zip(grid.flat, translations,
                                                                     labels)):
            image = draw_weights(ax, translation.weights, source, output)
            ax.set_title(titles[i] if titles else translation.text, fontsize="small", **PLAIN)
        for ax in grid.flat[len(translations):]:
            ax.set_axis_off()
        figure.colorbar(image, ax=grid, label="attention weight", shrink=0.8)
        if title:
            figure.suptitle(title, **PLAIN)
    if path is not None:
        save(figure, path, dpi=80, overwrite=overwrite)
    return figure


def plot_alignments(translations, path=None, overwrite=False):
    """alignments (Bahdanau et al., 2015, Fig. 3): held-out sentences of each task, translated
    right, with the weights the model wrote them with."""
    return plot_translations(translations, path, columns=2, overwrite=overwrite,
                             title="Where the decoder looked, writing each output token "
                                   "(held-out sentences)")


def plot_uniform_and_seeds(result, example, names, path=None, overwrite=False):
    """uniform-and-seeds: exact match by source length with learned and with uniform weights;
    beside it, one held-out sentence that two seeds translate alike, with each one's weights."""
    import matplotlib

    from attention.figures import (
        PLAIN,
        Figure,
        draw_weights,
        font_family,
        quiet_glyphs,
        save,
        visible,
    )

    labels = ([], []) if example is None else ([visible(t) for t in example[0].source_tokens],
                                               [visible(t) for t in example[0].tokens])
    with quiet_glyphs(), matplotlib.rc_context({"font.family": font_family(labels[0])}):
        figure = Figure(figsize=(14, 4.6), layout="constrained")
        axes = figure.subplots(1, 3, width_ratios=[1.1, 1, 1])
        learned = next(iter(result["by_length"]))
        for name, style in ((learned, "s-"), ("uniform", "o-")):
            points = sorted((int(n), v) for n, v in result["by_length"][name].items())
            axes[0].plot([n for n, _ in points], [v for _, v in points], style,
                         label=f"{name} ({'learned' if name == learned else 'frozen'} weights)")
        axes[0].set_xlabel("source length (words)")
        axes[0].set_ylabel("exact match (held out)")
        axes[0].set_ylim(0, 1.02)
        axes[0].legend(fontsize="small")
        axes[0].set_title("Uniform weights: does accuracy drop?")
        for ax, name, translation in zip(axes[1:], names, example or (None, None)):
            if translation is None:
                ax.set_axis_off()
                continue
            image = draw_weights(ax, translation.weights, *labels)
            ax.set_title(f"{name}: where it looked", fontsize="small")
        if example is not None:
            figure.colorbar(image, ax=list(axes[1:]), label="attention weight", shrink=0.8)
            figure.suptitle(f"Two seeds, the same translation: \"{example[0].text}\"", **PLAIN)
    if path is not None:
        save(figure, path, dpi=80, overwrite=overwrite)
    return figure


def plot_scoring(result, path=None, overwrite=False):
    """compare-scoring (Luong et al., 2015): exact match and CPU time per epoch of each score,
    a bar for the mean over seeds and a dot for each seed."""
    from attention.figures import PLAIN, Figure, save

    scores = list(result["scores"])
    figure = Figure(figsize=(9, 3.4), layout="constrained")
    axes = figure.subplots(1, 2)
    for ax, key, label in zip(axes, ("exact_match", "cpu_seconds_per_epoch"),
                              ("exact match (held out)", "CPU seconds per epoch")):
        values = [result["scores"][s][key] for s in scores]
        ax.bar(scores, [sum(v) / len(v) for v in values], color="#bcd", edgecolor="#567")
        for i, v in enumerate(values):
            ax.plot([i] * len(v), v, "o", color="#234", markersize=4)
        ax.set_ylabel(label)
        if key == "exact_match":
            ax.set_ylim(0.0, 1.0)
    figure.suptitle(f"{result['task']}: Luong's score functions, the same model and budget "
                    f"(hidden size {result['hidden_size']}, {result['epochs']} epochs)", **PLAIN)
    if path is not None:
        save(figure, path, dpi=80, overwrite=overwrite)
    return figure


def plot_architectures(result, path=None, overwrite=False):
    """compare-architectures: held-out exact match of the LSTM and the Transformer on each task,
    after the same CPU time; beside it, on toy-ja-en, exact match by source length."""
    from attention.figures import PLAIN, Figure, save

    names = list(result["tasks"])
    toy = result["tasks"].get("toy-ja-en")
    figure = Figure(figsize=(11 if toy else 6, 3.6), layout="constrained")
    axes = figure.subplots(1, 2 if toy else 1, squeeze=False)[0]
    for k, (model, color) in enumerate((("lstm", "#bcd"), ("transformer", "#db9"))):
        values = [result["tasks"][task][model]["exact_match"] for task in names]
        axes[0].bar([i + 0.4 * k - 0.2 for i in range(len(names))], values, width=0.4,
                    color=color, edgecolor="#567", label=model)
    axes[0].set_xticks(range(len(names)), names)
    axes[0].set_ylim(0.0, 1.0)
    axes[0].set_ylabel("exact match (held out)")
    axes[0].legend(fontsize="small")
    if toy:
        for model, style in (("lstm", "s-"), ("transformer", "o-")):
            points = sorted((int(n), v) for n, v in toy[model]["by_length"].items())
            axes[1].plot([n for n, _ in points], [v for _, v in points], style, label=model)
        axes[1].axvspan(25.5, max(int(n) for n in toy["lstm"]["by_length"]) + 0.5,
                        color="#eee", label="longer than trained on")
        axes[1].set_xlabel("source length (words)")
        axes[1].set_ylabel("exact match (held out)")
        axes[1].set_ylim(0, 1.02)
        axes[1].legend(fontsize="small")
        axes[1].set_title("toy-ja-en by source length", fontsize="small")
    from seq2seq.papers.architectures import spent
    figure.suptitle(f"The LSTM with attention and the Transformer, {spent(result)} each", **PLAIN)
    if path is not None:
        save(figure, path, dpi=80, overwrite=overwrite)
    return figure


def plot_head_alignments(translations, titles, path=None, overwrite=False):
    """head-alignments: one held-out sentence, translated right, with the Transformer's best
    cross-attention head for the crossing verb and with its layer's mean over the heads."""
    return plot_translations(translations, path, columns=2, titles=titles, overwrite=overwrite,
                             title=f"Where the Transformer looked: \"{translations[0].text}\"")


def plot_positions(result, path=None, overwrite=False):
    """compare-positions (Vaswani et al., 2017; Press et al., 2022): exact match against source
    length for sinusoidal and learned positions, the mean over the seeds as a line and the
    lowest to highest as a band, the lengths longer than any training source shaded; beside
    it, past the trained lengths, how long the outputs are. `result`: what
    seq2seq.papers.positions.compare_positions returns."""
    from attention.figures import PLAIN, Figure, save
    from seq2seq.papers.positions import KINDS, spread

    low, high = result["trained_lengths"]
    figure = Figure(figsize=(10, 3.8), layout="constrained")
    axes = figure.subplots(1, 2)
    for ax, key in zip(axes, ("exact_match", "output_length")):
        lengths = sorted({int(n) for kind in KINDS for run in result[kind].values()
                          for n in run[key]})
        for kind, style in zip(KINDS, ("o-", "s-")):
            points = [(n, spread(result, kind, key, str(n))) for n in lengths]
            points = [(n, x) for n, x in points if x is not None]
            xs = [n for n, _ in points]
            line, = ax.plot(xs, [x[1] for _, x in points], style, markersize=4,
                            label=f"{kind} ({len(result[kind])} seeds)")
            ax.fill_between(xs, [x[0] for _, x in points], [x[2] for _, x in points],
                            color=line.get_color(), alpha=0.2)
        ax.set_xlabel("source length (digits)")
    axes[0].axvspan(high + 0.5, result["tested_lengths"][1] + 0.5, color="grey", alpha=0.15,
                    label="longer than any\ntraining source")
    axes[0].set_ylabel("exact match")
    axes[0].set_ylim(0, 1.02)
    axes[0].legend(loc="lower left", fontsize="small")
    longer = range(high + 1, result["tested_lengths"][1] + 1)
    axes[1].plot(longer, longer, ":", color="black", label="the right length")
    axes[1].axhline(high, color="grey", linestyle="--", label="the longest trained on")
    axes[1].set_xticks(list(longer))
    axes[1].set_ylabel("mean output length (digits)")
    axes[1].legend(loc="upper left", fontsize="small")
    figure.suptitle(f"{result['task']}: the Transformer with sinusoidal and with learned "
                    f"positions, trained on {low} to {high} digits", **PLAIN)
    if path is not None:
        save(figure, path, dpi=90, overwrite=overwrite)
    return figure


def plot_norms(result, path=None, overwrite=False):
    """compare-norms (Xiong et al., 2020): the loss curves of the four models, the mean over the
    seeds as a line and the lowest to highest as a band; beside it, each block's gradient norm at
    the first update, pre-norm and post-norm (Xiong et al.'s Fig. 3). `result`: what
    seq2seq.papers.norms.compare_norms returns."""
    from attention.figures import PLAIN, Figure, save
    from seq2seq.papers.norms import LABELS

    figure = Figure(figsize=(11, 3.8), layout="constrained")
    axes = figure.subplots(1, 2, width_ratios=[1.4, 1])
    styles = {"pre-warmup": ("#28a", "-"), "pre-no-warmup": ("#28a", "--"),
              "post-warmup": ("#c52", "-"), "post-no-warmup": ("#c52", "--")}
    for name, runs in result["models"].items():
        curves = [run["loss"] for run in runs.values()]
        n = min(len(c) for c in curves)
        xs = next(iter(runs.values()))["updates_at"][:n]
        color, dash = styles[name]
        axes[0].plot(xs, [sum(c[i] for c in curves) / len(curves) for i in range(n)],
                     linestyle=dash, color=color, label=f"{LABELS[name]} ({len(curves)} seeds)")
        axes[0].fill_between(xs, [min(c[i] for c in curves) for i in range(n)],
                             [max(c[i] for c in curves) for i in range(n)], color=color,
                             alpha=0.15)
    if result["uniform_loss"] is not None:
        axes[0].axhline(result["uniform_loss"], color="grey", linestyle=":",
                        label="a uniform guess (ln V)")
    axes[0].set_xlabel("update")
    axes[0].set_ylabel(f"training loss (mean of {result['every']} updates)")
    axes[0].set_ylim(bottom=0)
    axes[0].legend(fontsize="small")
    layers = result["layers"]
    for name, marker in (("pre-warmup", "o-"), ("post-warmup", "s-")):
        norms = [run["grad_norm_by_layer"] for run in result["models"][name].values()]
        values = [sum(f[side][i] for f in norms) / len(norms)
                  for side in ("encoder", "decoder") for i in range(layers)]
        axes[1].plot(range(1, 2 * layers + 1), values, marker, color=styles[name][0],
                     label=name.split("-")[0] + "-norm")
    axes[1].set_xticks(range(1, 2 * layers + 1),
                       [f"e{i}" for i in range(1, layers + 1)]
                       + [f"d{i}" for i in range(1, layers + 1)])
    axes[1].set_xlabel("block (e: encoder, d: decoder)")
    axes[1].set_ylabel("gradient norm, first update")
    axes[1].set_ylim(bottom=0)
    axes[1].legend(fontsize="small")
    figure.suptitle(f"{result['task']}: the Transformer, {layers} + {layers} layers, Adam at lr "
                    f"{result['lr']:g}, with and without {result['warmup']} updates of warm-up",
                    **PLAIN)
    if path is not None:
        save(figure, path, dpi=90, overwrite=overwrite)
    return figure
