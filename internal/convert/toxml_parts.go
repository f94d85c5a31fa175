package convert

// encodedArray writes a SOAP-encoded array from the JSON array at i.
func (j *j2x) encodedArray(mp *memberPlan, i int) error {
	if j.t.toks[i].kind != '[' {
		return j.fail("expected an array (SOAP-encoded array)")
	}
	item := mp.typ.arrayItem
	end := j.t.skip(i)
	count := 0
	for k := i + 1; k < end; k = j.t.skip(k) {
		count++
	}
	w := j.w
	j.start(mp)
	if j.p.opts.Encoded {
		w.Attr("xsi", "type", "soapenc:Array")
		itemType := item.typ.typeName
		if itemType.local == "" {
			itemType = xmlName{prefix: "xsd", local: "anyType"}
		}
		w.Attr("soapenc", "arrayType", qname(itemType)+"["+itoa(count)+"]")
	}
	n := 0
	for k := i + 1; k < end; k = j.t.skip(k) {
		j.path = append(j.path, pathSeg{index: n})
		if err := j.element(item, k, false); err != nil {
			return err
		}
		j.path = j.path[:len(j.path)-1]
		n++
	}
	w.End(mp.name.prefix, mp.name.local)
	return nil
}

// attributes writes the "@name" members of tp.
func (j *j2x) attributes(tp *typePlan, base int, anyAttrs []int) error {
	for a, ap := range tp.attrs {
		at := int(j.slots[base+len(tp.members)+a])
		if at < 0 {
			if ap.attr.Required {
				return j.fail("missing required attribute " + quote(ap.json))
			}
			continue
		}
		j.path = append(j.path, pathSeg{name: ap.json})
		text, err := j.valueText(&ap.text, ap.attr.Type, at)
		if err != nil {
			return err
		}
		j.path = j.path[:len(j.path)-1]
		j.w.Attr(ap.name.prefix, ap.name.local, string(text))
	}
	for _, k := range anyAttrs {
		name := string(j.t.view(k))
		j.path = append(j.path, pathSeg{name: name})
		if !isNCName(name[1:]) {
			return j.fail("invalid attribute name " + quote(name))
		}
		text, err := j.simpleText(nil, k+1)
		if err != nil {
			return err
		}
		j.path = j.path[:len(j.path)-1]
		j.w.Attr("", name[1:], string(text))
	}
	return nil
}

// simpleContent writes the "$value" text of a complex type with simple
// content.
func (j *j2x) simpleContent(tp *typePlan, at int) error {
	if at < 0 {
		if tp.simple != nil {
			return j.fail(`missing required member "$value" (the element's text)`)
		}
		return nil // mixed content without text
	}
	j.path = append(j.path, pathSeg{name: "$value"})
	defer func() { j.path = j.path[:len(j.path)-1] }()
	text, err := j.valueText(&tp.text, tp.simple, at)
	if err != nil {
		return err
	}
	j.w.TextBytes(text)
	return nil
}

// rawXML writes the "$xml" member: well-formed XML fragments.
func (j *j2x) rawXML(at int) error {
	if at < 0 {
		return nil
	}
	j.path = append(j.path, pathSeg{name: "$xml"})
	defer func() { j.path = j.path[:len(j.path)-1] }()
	if j.t.toks[at].kind != '"' {
		return j.fail("expected a string of XML")
	}
	frag := j.t.view(at)
	if err := checkFragment(frag); err != nil {
		return j.fail("invalid XML fragment: " + err.Error())
	}
	j.w.Raw(frag)
	return nil
}

// interleave writes the members [from, to) of a repeated sequence: item 0
// of each member, then item 1 of each, and so on, so that parallel arrays
// become the repeated groups the schema expects.
func (j *j2x) interleave(tp *typePlan, from, to, base int) error {
	cursors := make([]int, to-from)
	ends := make([]int, to-from)
	for m := from; m < to; m++ {
		mp, at := tp.members[m], int(j.slots[base+m])
		cursors[m-from], ends[m-from] = -1, -1
		if at < 0 {
			continue
		}
		if j.t.toks[at].kind != '[' {
			j.path = append(j.path, pathSeg{name: mp.json})
			return j.fail("expected an array (the element repeats)")
		}
		cursors[m-from], ends[m-from] = at+1, j.t.skip(at)
	}
	for round := 0; ; round++ {
		wrote := false
		for m := from; m < to; m++ {
			c := cursors[m-from]
			if c < 0 || c >= ends[m-from] {
				continue
			}
			mp := tp.members[m]
			j.path = append(j.path, pathSeg{name: mp.json}, pathSeg{index: round})
			if err := j.element(mp, c, false); err != nil {
				return err
			}
			j.path = j.path[:len(j.path)-2]
			cursors[m-from] = j.t.skip(c)
			wrote = true
		}
		if !wrote {
			return nil
		}
	}
}
