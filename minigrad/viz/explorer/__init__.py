"""The backprop explorer: one backward pass of your own model, op by op, in a browser page.

    from minigrad.viz import explore
    explore(loss).save("step.html")            # open it: step forward and back with the arrows
    explore(loss, predict=True).save(...)      # predict each chosen gradient before it shows

page       explore() and the Explorer (the page, `.save`, Jupyter's inline view)
data       the graph and the engine's backward walk, replayed, as plain data
arrays     the arrays, written so that the page reads back exactly the engine's numbers
predict    predict mode: the ops a page asks at
question   one question: the element asked, its answer, the mistakes it tells apart
mistakes   the known mistakes a wrong answer may match
masked     the question at a mask (Where): an element it leaves out, whose gradient is 0
shown      the numbers as the page shows them (rounded), and an answer worked from them
words/     every text a learner reads, one table per language: en.py, ja.py (explore's lang=)
explorer.js, script/*.js, layout.js, explorer.css    the page's script (explorer.js lists its
           parts), its graph layout and its style

    python -m attention explore --out step.html
    python -m minigrad.viz explore lstm-cell --out cell.html
    python -m seq2seq explore RUN --out step.html
    python -m attention explore --predict --lang ja --out step.html     # in Japanese
"""

from minigrad.viz.explorer.page import Explorer, explore

__all__ = ["Explorer", "explore"]
