import Foundation
import LiveryModel
import LiveryXML

/// A derived colour as the studio shows and edits it (format 1.3, section 9.1): where its
/// modifiers are written, its base, modifier and amount, the resulting colour, and what else
/// changes with it. The editor writes one attribute of the element that holds the modifiers.
public struct StudioDerivation: Codable, Hashable, Sendable {
    /// What holds the modifiers: `constant NAME`, or `this param`.
    public var holder: String
    /// The constant the colour starts from (its `ref`); nil when the base is written as a colour.
    public var baseConstant: String?
    /// The base colour, `#RRGGBBAA`.
    public var base: String
    /// `lighten`, `darken` or `mix`; nil when the colour only sets alpha or guards contrast.
    public var modifier: String?
    public var amount: Double?
    /// What `mix` mixes with: a constant's name or a hex colour.
    public var mixWith: String?
    public var alpha: Double?
    /// What `contrast-with` names, its `min-ratio` and the ratio reached.
    public var contrastWith: String?
    public var minRatio: Double?
    public var contrastRatio: Double?
    public var contrastReached: Bool?
    public var space: String
    /// The resulting colour, `#RRGGBBAA`.
    public var result: String
    /// `explain`'s lines for it: "`accentStrong` = `brand` #007AFF darkened 0.2 in srgb = #0062CC".
    public var lines: [String]
    /// The editable attributes and their text as written: `ref` (or `content` for a base
    /// written as a colour), `lighten`/`darken`/`amount`, `alpha`, `min-ratio`, `space`.
    public var fields: [String: String]
    /// The colour constants the base can be.
    public var baseChoices: [String]
    /// Where an edit of the derivation goes: the element holding the modifiers.
    public var target: StudioTarget
    /// What else changes with the base: the other colours derived from it, and the instances.
    public var sameBase: StudioFollowers?
    /// What changes with this colour's modifiers: the instances whose values it gives.
    public var instances: [String]
}

/// Colours and instances that change together.
public struct StudioFollowers: Codable, Hashable, Sendable {
    /// Colour constants derived from the same base (through `ref`, `mix` or `contrast-with`).
    public var derived: [String]
    /// Instance ids whose values read the base.
    public var instances: [String]
}

extension SourceValue {
    /// Whether the element carries a colour modifier: a `ref` on it names the base, and its
    /// attributes are edited in place, never turned into a literal.
    public var derivesColor: Bool {
        spans.attributes.contains { ValueType.color.descriptor.modifierNames.contains($0.name) }
    }
}

extension StudioSession {
    /// The derivation of a colour param, when it or a constant it refers to derives its colour:
    /// the first derived element met from the param through its references.
    func derivation(
        of param: Param, in explained: ExplainedOperation, instance: InstanceExplanation, trail: ConstantTrail?,
        themeFolder: String, themeID: String, traits: TraitSet, constants: [String: ResolvedConstant]
    ) -> StudioDerivation? {
        guard param.value.type == .color else { return nil }
        var elementsByFile: [String: [ResolvedColorElement]] = [:]
        func elements(_ file: String) -> [ResolvedColorElement] {
            if let known = elementsByFile[file] { return known }
            let found = workspace.colorElements(inFileAt: file, ofThemeAt: themeFolder, traits: traits)
            elementsByFile[file] = found
            return found
        }
        let operation = explained.operation
        let file = explained.origin.location.file
        // the param itself
        let paramOwner: SourceValue.Owner
        var target = StudioTarget(
            kind: .value, label: "", file: display(file), themeID: explained.origin.themeID,
            layer: explained.origin.layer, readOnly: readOnlyReason(file), operation: operation.name,
            state: operation.state.rawValue, param: param.name)
        switch explained.origin.source {
        case .instance:
            paramOwner = .instance(
                id: instance.id, component: instance.component, operation: operation.name, state: operation.state,
                param: param.name)
            target.ownerKind = "instance"
            target.ownerName = instance.id
            target.label = "this instance in \(explained.origin.themeID), \(explained.origin.layer)"
        case .class(let name, _):
            paramOwner = .class(name: name, operation: operation.name, state: operation.state, param: param.name)
            target.ownerKind = "class"
            target.ownerName = name
            target.label = "class \(name) in \(explained.origin.themeID), \(explained.origin.layer)"
        }
        target.version = version(file)
        if let derived = elements(file).last(where: { $0.owner == paramOwner })?.derivation {
            let instances: [String]
            if case .class(let name, _) = explained.origin.source {
                instances = ["every instance of class \(name)"]
            } else {
                instances = [instance.id]
            }
            return studioDerivation(
                derived, holder: "this param", target: target, instances: instances, themeFolder: themeFolder,
                traits: traits, constants: constants, excluding: nil)
        }
        // a constant it refers to, nearest first
        for step in trail?.steps ?? [] {
            let path = step.location.file
            guard
                let derived = elements(path).last(where: { $0.owner == .constant(name: step.constant) })?.derivation
            else { continue }
            var constantTarget = StudioTarget(
                kind: .value, label: "constant \(step.constant) (every use follows)", file: display(path),
                themeID: step.themeID, layer: (path as NSString).lastPathComponent, readOnly: readOnlyReason(path),
                ownerKind: "constant", ownerName: step.constant)
            constantTarget.version = version(path)
            let instances = workspace.dependents(ofConstant: step.constant, themeAt: themeFolder, traits: traits)
                .instances
            return studioDerivation(
                derived, holder: "constant \(step.constant)", target: constantTarget, instances: instances,
                themeFolder: themeFolder, traits: traits, constants: constants, excluding: step.constant)
        }
        return nil
    }

    private func studioDerivation(
        _ derived: ColorDerivation, holder: String, target: StudioTarget, instances: [String], themeFolder: String,
        traits: TraitSet, constants: [String: ResolvedConstant], excluding: String?
    ) -> StudioDerivation {
        let written = derived.written
        var fields: [String: String] = ["space": written.space.rawValue]
        var modifier: String?
        var amount: Double?
        var mixWith: String?
        switch written.shift {
        case .lighten(let p)?:
            modifier = "lighten"
            amount = p
            fields["lighten"] = ValueText.number(p)
        case .darken(let p)?:
            modifier = "darken"
            amount = p
            fields["darken"] = ValueText.number(p)
        case .mix(let operand, let p)?:
            modifier = "mix"
            amount = p
            mixWith = operand
            fields["amount"] = ValueText.number(p)
        case nil: break
        }
        if let alpha = written.alpha { fields["alpha"] = ValueText.number(alpha) }
        if let contrast = written.contrastWith { fields["min-ratio"] = ValueText.number(contrast.minimumRatio) }
        if let base = written.base {
            fields["ref"] = base
        } else {
            fields["content"] = Self.hex(derived.base)
        }
        var sameBase: StudioFollowers?
        if let base = written.base {
            let dependents = workspace.dependents(ofConstant: base, themeAt: themeFolder, traits: traits)
            sameBase = StudioFollowers(
                derived: dependents.constants.filter { $0 != excluding && constants[$0]?.modifiers != nil },
                instances: dependents.instances)
        }
        let contrast = derived.contrast
        return StudioDerivation(
            holder: holder, baseConstant: written.base, base: derived.base.hexString, modifier: modifier,
            amount: amount, mixWith: mixWith, alpha: written.alpha, contrastWith: written.contrastWith?.operand,
            minRatio: written.contrastWith?.minimumRatio, contrastRatio: contrast?.ratio,
            contrastReached: contrast?.reached, space: written.space.rawValue, result: derived.result.hexString,
            lines: derived.lines, fields: fields,
            baseChoices: constants.values.filter { $0.value.type == .color && $0.name != excluding }.map(\.name)
                .sorted(),
            target: target, sameBase: sameBase, instances: instances)
    }
}

/// The page's part for derived colours: the inspector's derivation line and the editor of the
/// element holding the modifiers (base, amount, alpha, min-ratio, space), with what follows.
/// Runs inside the page's script, whose helpers (`el`, `api`, `mine`, `status`) it uses.
extension StudioPage {
    static let derivedCSS = """
        .op .derived{font-size:12px;color:#333;margin-top:2px}
        .op .derived .swatch{margin:0 3px}
        .op .derived .value{font-family:ui-monospace,monospace}
        .editor .follows{font-size:12px;color:#333;background:#fff;border:1px solid #e3e7ee;border-radius:6px;padding:4px 6px;overflow-wrap:anywhere}
        .editor .follows b{font-weight:600}
        .editor .preview{display:flex;gap:6px;align-items:center;font-size:12px}
        """

    static let derivedScript = #"""
        function derivedSteps(d){
          var parts=[];
          if(d.modifier==="mix")parts.push("mix "+d.amount+" with "+d.mixWith);else if(d.modifier)parts.push(d.modifier+" "+d.amount);
          if(d.alpha!==undefined&&d.alpha!==null)parts.push("alpha "+d.alpha);
          if(d.contrastWith)parts.push("contrast with "+d.contrastWith+" \u2265 "+d.minRatio+":1 (got "+(d.contrastRatio||0).toFixed(2)+":1 "+(d.contrastReached?"\u2713":"\u2717")+")");
          return parts.join(" \u2192 ")+" in "+d.space;
        }
        function baseText(d){return (d.baseConstant?d.baseConstant+" ":"")+d.base.slice(0,7)}
        function derivedLine(op){
          var d=op.derived,line=el("div","derived");line.dataset.derived=op.name+"|"+op.state;
          var sb=el("span","swatch");sb.style.background=d.base;line.appendChild(sb);
          line.appendChild(el("span","","derived ("+d.holder+"): "+baseText(d)+" \u2192 "+derivedSteps(d)+" ="));
          var sr=el("span","swatch");sr.style.background=d.result;line.appendChild(sr);
          line.appendChild(el("span","value",d.result.slice(0,7)));
          return line;
        }
        function names(list){return list.length>8?list.slice(0,8).join(", ")+" and "+(list.length-8)+" more":list.join(", ")}
        function derivedEditor(row,op){
          var d=op.derived,box=el("div","editor");box.id="editor";box.dataset.derivedEditor="1";
          box.appendChild(el("div","where","Derived colour: writes "+d.holder+" in "+d.target.file+" (theme "+d.target.themeID+", layer "+d.target.layer+")"));
          var preview=el("div","preview");
          var sb=el("span","swatch");sb.style.background=d.base;preview.appendChild(sb);
          preview.appendChild(el("span","",baseText(d)+" \u2192 "+derivedSteps(d)+" ="));
          var sr=el("span","swatch");sr.style.background=d.result;preview.appendChild(sr);preview.appendChild(el("span","",d.result.slice(0,7)));
          box.appendChild(preview);
          var fields={};
          function field(name,label,kind,value,choices){
            var l=el("label");l.appendChild(el("span","",label));var input;
            if(kind==="enum"){input=el("select");(choices||[]).forEach(function(c){input.appendChild(el("option","",c))});input.value=value}
            else{input=el("input");input.type=kind==="number"?"number":"text";if(kind==="number"){input.step="0.05";input.min="0"}input.value=value}
            input.dataset.field=name;l.appendChild(input);box.appendChild(l);fields[name]=input;
          }
          var f=d.fields;
          if(f.ref!==undefined)field("ref","Base","enum",f.ref,d.baseChoices);
          if(f.content!==undefined)field("content","Base","text",f.content);
          if(f.lighten!==undefined)field("lighten","Lighten by","number",f.lighten);
          if(f.darken!==undefined)field("darken","Darken by","number",f.darken);
          if(f.amount!==undefined)field("amount","Mix amount","number",f.amount);
          if(f.alpha!==undefined)field("alpha","Alpha","number",f.alpha);
          if(f["min-ratio"]!==undefined)field("min-ratio","Min ratio","number",f["min-ratio"]);
          field("space","Space","enum",f.space,["srgb","hsl","lch"]);
          var follows=el("div","follows");follows.id="edit-follows";
          follows.appendChild(el("div","","The amount and space change "+(d.instances.length?names(d.instances):"no instance")+"."));
          if(d.sameBase){var s=d.sameBase,t=el("div");
            t.appendChild(el("span","","Also following from "));t.appendChild(el("b","",d.baseConstant));
            t.appendChild(el("span","",": "+(s.derived.length?"derived colours "+names(s.derived)+"; ":"no other derived colour; ")+"instances "+(s.instances.length?names(s.instances):"none")+". Editing "+d.baseConstant+" changes them all."));
            follows.appendChild(t)}
          box.appendChild(follows);
          var actions=el("div");var write=el("button","primary","Write");write.id="edit-write";actions.appendChild(write);box.appendChild(actions);
          if(d.target.readOnly){write.disabled=true;box.insertBefore(el("div","readonly",d.target.readOnly),actions)}
          box.addEventListener("keydown",function(e){if(e.key==="Enter"&&e.target.tagName==="INPUT"&&!write.disabled){e.preventDefault();write.click()}});
          write.addEventListener("click",function(){
            var slot=null,text="";
            Object.keys(fields).forEach(function(k){if(!slot&&(f[k]||"")!==fields[k].value){slot=k;text=fields[k].value}});
            if(!slot){status("Nothing changed.",true);return}
            var started=performance.now();var old=box.querySelector(".refusal");if(old)old.remove();
            mine(api("/api/edit",{target:d.target,slot:slot,text:text}),started,function(r){
              if(r.ok||r.refusal==="stale")return false;
              var why=el("div","refusal",r.message);why.id="edit-refusal";why.setAttribute("role","alert");box.insertBefore(why,actions);
              return true});
          });
          row.appendChild(box);
        }
        """#
}
