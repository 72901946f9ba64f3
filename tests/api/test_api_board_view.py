"""The board description the web client draws from (BOARD's `view` in docs/api.md): every
layout holds every cell and label in both orientations, no two cells overlap, the flip turns
cells about the pivot, the texts and legend are there where the variant needs them.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import api_harness as h


def boards():
    return {v["name"]: v for v in h.shared().call("GET", "/api/variants")}


def placed(board, layout, flipped):
    """Cell name -> (x, y) on the page."""
    px, py = layout["pivot"]
    out = {}
    for c in board["cells"]:
        dx, dy = layout["levels"][c["level"]]
        x, y = dx + c["cx"], dy + c["cy"]
        out[c["name"]] = (2 * px - x, 2 * py - y) if flipped else (x, y)
    return out


def test_layouts_hold_every_cell_without_overlap():
    for name, v in boards().items():
        board, view = v["board"], v["board"]["view"]
        w, hgt = view["cell"]["width"], view["cell"]["height"]
        assert len(view["layouts"]) == board["levels"], (name, "one layout a level count: wide, tall")
        for layout in view["layouts"]:
            for flipped in (False, True):
                at = placed(board, layout, flipped)
                for cell, (x, y) in at.items():
                    assert w / 2 - 2 <= x <= layout["width"] - w / 2 + 2, (name, layout["name"], cell, x)
                    assert hgt / 2 - 2 <= y <= layout["height"] - hgt / 2 + 2, (name, layout["name"], cell, y)
                # Two cells closer than a cell's height overlap (hex and square alike).
                pts = sorted(at.items(), key=lambda kv: kv[1])
                for i, (a, (ax, ay)) in enumerate(pts):
                    for b, (bx, by) in pts[i + 1:]:
                        if bx - ax >= hgt:
                            break
                        assert (bx - ax) ** 2 + (by - ay) ** 2 >= (hgt - 3) ** 2, (name, layout["name"], a, b)
                for lb in layout["labels"]:
                    x, y = (lb["fx"], lb["fy"]) if flipped else (lb["x"], lb["y"])
                    assert 0 <= x <= layout["width"] and 0 <= y <= layout["height"], (name, lb)


def test_flip_turns_the_board_half_round():
    v = boards()["chess"]
    layout = v["board"]["view"]["layouts"][0]
    up, down = placed(v["board"], layout, False), placed(v["board"], layout, True)
    assert up["a1"] == down["h8"] and up["e4"] == down["d5"], (up["a1"], down["h8"])
    assert up["a1"][1] > up["a8"][1], "White at the bottom"
    files = {lb["text"]: lb for lb in layout["labels"] if lb["text"] in "abcdefgh"}
    assert len(files) == 8 and files["a"]["x"] < files["h"]["x"] and files["a"]["fx"] > files["h"]["fx"]
    assert files["a"]["y"] == files["a"]["fy"] > up["a1"][1], "file letters stay under the board when flipped"


def test_tones_zones_texts_and_legend():
    b = boards()
    chess = b["chess"]["board"]
    e4 = [c for c in chess["cells"] if c["name"] == "e4"][0]
    a1 = [c for c in chess["cells"] if c["name"] == "a1"][0]
    assert chess["view"]["tones"] == 2 and e4["tone"] == 0 and a1["tone"] == 1, "a1 is dark, e4 light"
    assert chess["caption"] == "8\u00d78" and "text" not in e4
    star = b["starchess"]["board"]
    assert star["view"]["tones"] == 3 and star["caption"] == "37 hex cells"
    assert all(c["text"] == c["name"] for c in star["cells"]), "Starchess cells show their numbers"
    assert "text" in star["view"]["cell"] and "mark" not in star["view"]["cell"]
    says = b["square-says"]["board"]
    assert "mark" in says["view"]["cell"] and all(c["mark"] for c in says["cells"])
    mega = b["megastar"]
    zones = mega["board"]["view"]["zones"]
    assert [z["id"] for z in zones] == ["drum", "rim"], zones
    assert sum(1 for c in mega["board"]["cells"] if c["zone"] == "drum") == 122
    assert [c["text"] for c in mega["board"]["cells"] if c["name"] == "Uk11"] == ["k11"]
    legend = mega["board"]["view"]["legend"]
    assert sorted(p["letter"] for p in legend) == sorted("PKRNCFTBSL"), legend
    assert all(p["moves"] for p in legend)
    titles = [(lb["text"], lb["level"]) for lb in mega["board"]["view"]["layouts"][0]["labels"] if lb["kind"] == "title"]
    assert titles == [("Upper level (U)", 0), ("Lower level (L)", 1)], titles
    coords = [lb for lb in mega["board"]["view"]["layouts"][1]["labels"] if lb["kind"] == "coord"]
    assert {lb["level"] for lb in coords} == {0, 1}, "each label names its level"
    wide, tall = mega["board"]["view"]["layouts"]
    assert wide["width"] > wide["height"] and tall["height"] > tall["width"], "side by side, one above the other"
    assert b["chess"]["board"]["view"]["legend"] == []
