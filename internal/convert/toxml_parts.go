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
		text, err := j.simpleText(ap.attr.Type, at)
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
		return nil
	}
	j.path = append(j.path, pathSeg{name: "$value"})
	defer func() { j.path = j.path[:len(j.path)-1] }()
	return j.simpleValue(tp.simple, at)
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
