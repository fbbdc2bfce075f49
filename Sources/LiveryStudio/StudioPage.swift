import LiveryModel

/// The studio's single page: HTML, CSS and script in one string, served at `/`. It talks to the
/// server with the token from its own URL (header for requests, query for the WebSocket), draws
/// the composed screens from `/api/state`, explains a clicked component from `/api/explain`,
/// and sends edits to `/api/edit`. Elements carry `data-` attributes and ids the browser test
/// uses to click and type as a designer would.
public enum StudioPage {
    /// The page with a menu for each standard dimension.
    public static let html = html(dimensions: .standard)

    /// The page with a menu for each of `dimensions` (the studio's: `StudioSession.dimensions()`).
    public static func html(dimensions: TraitDimensions) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Livery Studio</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>\(css)\(derivedCSS)</style></head>
        <body>
        <header>
          <h1>Livery Studio</h1>
          <label>Theme <select id="theme"></select></label>
          \(traitControls(dimensions))
          <label>Text scale <select id="scale"><option>1</option><option>1.5</option><option>2</option><option>3</option></select></label>
          <label>Compare <select id="compare"><option value="">nothing</option><option value="traits:dark">dark</option>
            <option value="traits:">light</option></select></label>
          <span class="spacer"></span>
          <button id="undo" title="Undo the last edit (Ctrl+Z)">Undo</button>
          <button id="redo" title="Redo (Ctrl+Shift+Z)">Redo</button>
        </header>
        <div id="status" role="status"></div>
        <main>
          <section id="screens" aria-label="Composed screens"></section>
          <aside id="inspector"><p class="hint">Click a component on the screen to see where each of its values comes from, and to edit one.</p></aside>
        </main>
        <section id="findings" aria-label="Findings"></section>
        <script>\(script)</script>
        </body></html>
        """
    }

    /// One menu per trait dimension of the table (`trait-NAME`: any, or one of its values), so a
    /// dimension added to the table, or declared by a theme's schema file, shows here with no edit.
    static func traitControls(_ dimensions: TraitDimensions) -> String {
        dimensions.all.map { dimension in
            "<label>\(dimension.name) <select id=\"trait-\(dimension.name)\" class=\"trait\"><option value=\"\">any</option>"
                + dimension.values.map { "<option>\($0)</option>" }.joined() + "</select></label>"
        }.joined(separator: "\n          ")
    }

    static let css = """
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1d1d1f;background:#f4f4f6}
        header{display:flex;flex-wrap:wrap;gap:14px;align-items:center;padding:10px 16px;background:#fff;border-bottom:1px solid #ddd;position:sticky;top:0;z-index:20}
        header h1{font-size:16px;margin:0 8px 0 0}
        header .spacer{flex:1}
        button{font:inherit;padding:4px 12px;border:1px solid #bbb;border-radius:6px;background:#fff;cursor:pointer}
        button:disabled{opacity:.45;cursor:default}
        button.primary{background:#0a66d8;border-color:#0a66d8;color:#fff}
        #status{padding:6px 16px;min-height:32px;font-size:13px;color:#333}
        #status.refused{background:#fdecea;color:#8a1c14}
        #status.ok{background:#e8f5ec;color:#1b5e20}
        main{display:flex;gap:16px;padding:0 16px;align-items:flex-start}
        #screens{display:flex;gap:28px;flex-wrap:wrap;flex:1;min-width:0;padding-top:28px}
        figure{margin:0}
        figcaption{font-weight:600;font-size:13px;margin-bottom:22px}
        .bezel{position:relative;box-sizing:content-box;border:10px solid #111;border-radius:30px;background:#fff;overflow:hidden}
        .screen{position:absolute;left:0;top:0;transform-origin:0 0}
        .el{position:absolute;display:flex;align-items:center;padding:0 6px;cursor:pointer;overflow:hidden}
        .el.grow{overflow:visible;align-items:flex-start;padding-top:4px;padding-bottom:4px}
        .el .text{min-width:0}
        .el.nowrap .text{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .el img.content{display:block;max-width:40%;max-height:55%;object-fit:contain;pointer-events:none;flex:none}
        .el.uibutton{justify-content:center;gap:6px}
        .el.selected{outline:3px solid #0a66d8;outline-offset:1px;z-index:10}
        .badge{position:absolute;transform:translate(-100%,-100%);margin-top:-2px;font:600 10px/1.5 system-ui,sans-serif;padding:0 5px;border-radius:6px;color:#fff;white-space:nowrap;z-index:5;pointer-events:none}
        .badge.pass{background:#1b7f3b}.badge.fail{background:#c62828}
        .screen.badges-hidden .badge{display:none}
        aside{width:440px;flex:none;overflow-x:hidden;background:#fff;border:1px solid #ddd;border-radius:10px;padding:12px 14px;max-height:calc(100vh - 120px);overflow:auto}
        aside h2{font-size:15px;margin:0 0 6px}
        .op{border-top:1px solid #eee;padding:7px 0}
        .op .head{display:flex;gap:8px;align-items:center}
        .op .name{font-weight:600}
        .op .value{font-family:ui-monospace,monospace;font-size:12px}
        .swatch{display:inline-block;width:14px;height:14px;border:1px solid #999;border-radius:3px;vertical-align:middle}
        .op .origin,.op .overridden,.op .defined{color:#555;font-size:12px}
        .op button.edit{margin-left:auto;padding:1px 10px}
        .editor{background:#f6f8fb;border:1px solid #d4dbe6;border-radius:8px;padding:8px;margin-top:6px;display:grid;gap:6px}
        .editor label{display:flex;gap:8px;align-items:center}
        .editor label>span:first-child{width:84px;color:#444}
        .editor input[type=text],.editor input[type=number],.editor select{font:inherit;padding:3px 6px;flex:1;min-width:0;width:100%}
        .editor label{min-width:0}
        .editor input[type=color]{flex:none;width:44px;padding:0}
        .editor .where{font-size:12px;color:#333}
        .editor fieldset.targets{border:0;margin:0;padding:0;display:grid;gap:3px;min-width:0}
        .editor fieldset.targets legend{padding:0;margin-bottom:2px;color:#444}
        .editor fieldset.targets label{align-items:flex-start;font-size:13px;overflow-wrap:anywhere}
        .editor fieldset.targets input{margin:3px 0 0;flex:none}
        .editor .refusal{color:#8a1c14;background:#fdecea;border-radius:6px;padding:4px 6px;font-size:12px;overflow-wrap:anywhere}
        .editor .readonly{color:#8a1c14;font-size:12px}
        .editor .stale{color:#7a4d00;background:#fff6e0;border-radius:6px;padding:4px 6px;font-size:12px}
        .contrast{font-size:12px;font-weight:600}
        .contrast.pass{color:#1b7f3b}.contrast.fail{color:#c62828}
        #findings{margin:16px;background:#fff;border:1px solid #ddd;border-radius:10px;padding:10px 14px}
        #findings.pending{opacity:.6}
        #findings h2{font-size:15px;margin:0 0 6px}
        #findings li{font-size:13px;margin:3px 0}
        #findings .error{color:#8a1c14}#findings .warning{color:#7a4d00}
        .hint{color:#666}
        """

    static let script = #"""
        (function(){
        "use strict";
        var token=new URLSearchParams(location.search).get("token")||"";
        var state=null,selected=null,explanation=null,busy=false;
        var editors=\#(editorsJSON);
        // Edits, undos and redos in flight, and the newest generation the page has asked for: the push
        // a change of this page causes is not loaded a second time beside the load that follows it.
        var own=0,known=-1;
        // An editor kept open through a reload: the inspector shows values from before it.
        var inspectorStale=false;
        var $=function(id){return document.getElementById(id)};
        function api(path,body){
          var init={headers:{"X-Livery-Token":token}};
          if(body!==undefined){init.method="POST";init.body=JSON.stringify(body);init.headers["Content-Type"]="application/json"}
          return fetch(path,init).then(function(r){return r.json()});
        }
        function traits(dark){
          var t=[];document.querySelectorAll("select.trait").forEach(function(e){
            var v=e.id==="trait-appearance"&&dark!==undefined?(dark?"dark":""):e.value;if(v)t.push(v)});
          return t.join(",");
        }
        function query(){
          var q="theme="+encodeURIComponent($("theme").value||"")+"&traits="+encodeURIComponent(traits());
          var c=$("compare").value;
          if(c.indexOf("traits:")===0){var d=c==="traits:dark";q+="&compareTraits="+encodeURIComponent(traits(d))}
          else if(c.indexOf("theme:")===0){q+="&compareTheme="+encodeURIComponent(c.slice(6))}
          return q;
        }
        function status(text,ok){var s=$("status");s.textContent=text||"";s.className=text?(ok?"ok":"refused"):""}
        // The screen first: the state of the trait sets drawn, without findings. Then the inspector and
        // the findings of every trait set, which take longer. A reload that comes from a change made
        // elsewhere (another tab, an editor, git) keeps an open editor and what was typed in it: its
        // Write is then refused if its file changed, rather than overwriting the change.
        function load(editStarted,keepEditor){
          var started=editStarted||performance.now();
          document.body.dataset.settled="0";
          return api("/api/state?"+query()+"&findings=later").then(function(s){
            state=s;known=Math.max(known,s.generation);fillThemes();draw();
            $("undo").disabled=!s.undo;$("redo").disabled=!s.redo;
            $("findings").classList.add("pending");
            document.body.dataset.drawnMs=String(Math.round(performance.now()-started));
            // From the edit's request to the redrawn screen, for the latency script.
            if(editStarted)document.body.dataset.editMs=document.body.dataset.drawnMs;
            var kept=keepEditor&&$("editor");
            if(kept&&!kept.querySelector(".stale")){var note=el("div","stale","The files changed since this editor opened (another tab, an editor, git). If its file changed, Write is refused; close the editor (Edit) to see the new values.");
              kept.insertBefore(note,kept.firstChild)}
            if(kept)inspectorStale=true;
            var inspected=selected&&!kept?explain(selected.id,selected.theme,selected.traits):null;
            var found=api("/api/findings?"+query()).then(function(f){state.diagnostics=f.diagnostics||[];findings()});
            return Promise.all([inspected,found]);
          }).then(function(){document.body.dataset.generation=state.generation;document.body.dataset.settled="1"});
        }
        function fillThemes(){
          var sel=$("theme"),cmp=$("compare");
          if(sel.options.length!==state.themes.length){
            var current=sel.value;sel.innerHTML="";
            state.themes.forEach(function(t){var o=document.createElement("option");o.value=t.id;
              o.textContent=t.name+(t.readOnly?" (read-only)":"");sel.appendChild(o);
              var c=document.createElement("option");c.value="theme:"+t.id;c.textContent="theme "+t.name;cmp.appendChild(c)});
            if(current)sel.value=current;else if(state.screens[0])sel.value=state.screens[0].themeID;
          }
        }
        function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=text;return e}
        function draw(){
          var host=$("screens");host.innerHTML="";
          var scale=parseFloat($("scale").value)||1;
          state.screens.forEach(function(screen,index){
            var fig=el("figure");fig.appendChild(el("figcaption","",screen.themeID+" \u00b7 "+(screen.traits||"no traits")));
            var zoom=Math.min(1,(state.screens.length>1?340:400)/screen.width);
            var bezel=el("div","bezel");bezel.style.width=screen.width*zoom+"px";bezel.style.height=screen.height*zoom+"px";
            var scr=el("div","screen");scr.style.width=screen.width+"px";scr.style.height=screen.height+"px";scr.style.transform="scale("+zoom+")";
            screen.elements.forEach(function(e){scr.appendChild(component(e,scale,screen,index))});
            // Badges sit on the screen above each component's top right corner, outside the text they measure.
            screen.elements.forEach(function(e){if(!e.contrast)return;
              var b=el("span","badge "+(e.contrast.pass?"pass":"fail"),e.contrast.text+":1 "+(e.contrast.pass?"\u2713":"\u2717"));
              b.title="needs "+e.contrast.required+":1";b.dataset.badge=e.id;b.style.left=(e.x+e.width)+"px";b.style.top=e.y+"px";scr.appendChild(b)});
            bezel.appendChild(scr);fig.appendChild(bezel);host.appendChild(fig);
          });
        }
        function component(e,scale,screen,index){
          var d=el("div","el "+e.component);d.dataset.id=e.id;d.dataset.screen=index;
          var s=d.style;s.left=e.x+"px";s.top=e.y+"px";s.width=e.width+"px";
          var grows=!!e.text&&e.component!=="uibutton"&&e.lines!==1;
          if(grows){d.classList.add("grow");s.minHeight=e.height+"px"}else{s.height=e.height+"px"}
          if(e.lines===1)d.classList.add("nowrap");
          if(e.background)s.backgroundColor=e.background;
          if(e.textColor)s.color=e.textColor;
          if(e.cornerRadius)s.borderRadius=e.cornerRadius+"px";
          if(e.borderWidth)s.border=e.borderWidth+"px solid "+(e.borderColor||"#000");
          if(e.alpha!==undefined&&e.alpha!==null)s.opacity=e.alpha;
          if(e.backgroundImage){s.backgroundImage="url("+e.backgroundImage+")";s.backgroundSize="100% 100%"}
          if(e.fontFamily)s.fontFamily="'"+e.fontFamily.replace(/'/g,"")+"',system-ui,sans-serif";
          if(e.fontWeight)s.fontWeight=e.fontWeight;
          if(e.fontSize){var size=e.fixed||e.fontFixed?e.fontSize:e.fontSize*scale;if(e.fontMaxSize&&!e.fontFixed)size=Math.min(size,e.fontMaxSize);s.fontSize=size+"px"}
          if(e.alignment){s.justifyContent=e.alignment==="center"?"center":e.alignment==="right"?"flex-end":"flex-start";s.textAlign=e.alignment==="center"?"center":e.alignment==="right"?"right":"left"}
          if(e.component==="uiimageview"&&e.image){s.backgroundImage="url("+e.image+")";
            s.backgroundSize=e.contentMode==="scaleAspectFill"?"cover":e.contentMode==="scaleToFill"?"100% 100%":"contain";
            s.backgroundPosition="center";s.backgroundRepeat="no-repeat"}
          else if(e.image){var img=el("img","content");img.src=e.image;img.alt="";d.appendChild(img)}
          if(e.text){d.appendChild(el("span","text",e.text))}
          if(selected&&selected.id===e.id&&selected.screen===index)d.classList.add("selected");
          d.addEventListener("click",function(ev){ev.stopPropagation();
            selected={id:e.id,theme:screen.themeID,traits:screen.traits,screen:index};
            document.querySelectorAll(".el.selected").forEach(function(x){x.classList.remove("selected")});d.classList.add("selected");
            explain(e.id,screen.themeID,screen.traits)});
          return d;
        }
        function findings(){
          var f=$("findings");f.innerHTML="";f.classList.remove("pending");f.appendChild(el("h2","","Findings ("+state.diagnostics.length+")"));
          var ul=el("ul");
          state.diagnostics.forEach(function(d){var li=el("li",d.severity,(d.file||"")+(d.line?":"+d.line:"")+": "+d.severity+": "+d.message+" ["+d.code+"]");
            li.dataset.code=d.code;ul.appendChild(li)});
          if(!state.diagnostics.length)ul.appendChild(el("li","","No findings."));
          f.appendChild(ul);
        }
        function explain(id,theme,tr){
          return api("/api/explain?theme="+encodeURIComponent(theme)+"&traits="+encodeURIComponent(tr||"")+"&id="+encodeURIComponent(id)).then(function(x){
            if(x.ok===false){$("inspector").innerHTML="";$("inspector").appendChild(el("p","hint",x.message));explanation=null;return}
            explanation=x;inspectorStale=false;inspector();
          });
        }
        function where(o){return o.file+(o.line?":"+o.line:"")+" \u00b7 "+o.source+" \u00b7 layer "+o.layer}
        function inspector(){
          var a=$("inspector"),x=explanation;a.innerHTML="";
          a.appendChild(el("h2","",x.id+" ("+x.component+")"));
          a.appendChild(el("p","hint",x.themeID+" \u00b7 "+(x.traits||"no traits")));
          x.operations.forEach(function(op,i){
            var row=el("div","op");row.dataset.operation=op.name;row.dataset.state=op.state;
            var head=el("div","head");
            head.appendChild(el("span","name",op.name+(op.state!=="normal"?" ("+op.state+")":"")));
            if(editors[op.type][0].kind==="color"){var sw=el("span","swatch");sw.style.background=op.fields.content;head.appendChild(sw)}
            head.appendChild(el("span","value",op.value));
            var b=el("button","edit","Edit");b.dataset.edit=op.name+"|"+op.state;b.addEventListener("click",function(){editor(row,op)});head.appendChild(b);
            row.appendChild(head);
            row.appendChild(el("div","origin",(op.constants.length?"via "+op.constants.join(" \u2192 ")+" \u00b7 ":"")+where(op.origin)));
            if(op.derived)row.appendChild(derivedLine(op));
            // Where the constant is defined: the place an edit of the value goes by default.
            if(op.definedAt){var def=el("div","defined",op.constants[op.constants.length-1]+" is defined in "+op.definedAt.file+(op.definedAt.line?":"+op.definedAt.line:"")+" (theme "+op.definedAt.themeID+")");
              def.dataset.defined=op.definedAt.file+(op.definedAt.line?":"+op.definedAt.line:"");row.appendChild(def)}
            op.overridden.forEach(function(o){row.appendChild(el("div","overridden","overrides "+where(o)))});
            a.appendChild(row);
          });
        }
        // #RGB and #RGBA as the picker's #RRGGBB.
        function hex(c){c=c||"#000000";if(/^#[0-9a-fA-F]{3,4}$/.test(c))c="#"+c.slice(1,4).split("").map(function(x){return x+x}).join("");return c.slice(0,7)}
        function luminance(h){var v=[1,3,5].map(function(i){var c=parseInt(h.substr(i,2),16)/255;return c<=0.04045?c/12.92:Math.pow((c+0.055)/1.055,2.4)});
          return 0.2126*v[0]+0.7152*v[1]+0.0722*v[2]}
        function ratio(a,b){var x=luminance(a),y=luminance(b);return (Math.max(x,y)+0.05)/(Math.min(x,y)+0.05)}
        \#(derivedScript)
        function editor(row,op){
          var old=row.querySelector(".editor");
          if(old){old.remove();if(inspectorStale&&selected){inspectorStale=false;explain(selected.id,selected.theme,selected.traits)}return}
          if(op.derived){derivedEditor(row,op);return}
          var box=el("div","editor");box.id="editor";
          // Every place the edit can go, each on its own line, none cut off.
          var t=el("fieldset","targets");t.id="edit-target";t.appendChild(el("legend","","Write to"));
          var target={value:0};
          op.targets.forEach(function(tg,i){var l=el("label");var r=el("input");r.type="radio";r.name="edit-target";r.value=i;r.checked=i===0;
            r.addEventListener("change",function(){if(r.checked){target.value=i;showWhere()}});
            l.appendChild(r);l.appendChild(el("span","",tg.label+(tg.readOnly?" \u2014 read-only":"")));t.appendChild(l)});
          box.appendChild(t);
          var whereLine=el("div","where");box.appendChild(whereLine);
          var fields={};
          function field(name,kind,value,choices){
            var l=el("label");l.appendChild(el("span","",name));var input;
            if(kind==="enum"){input=el("select");(choices||[]).forEach(function(c){var o=el("option","",c);input.appendChild(o)});input.value=value||""}
            else{input=el("input");input.type=kind==="number"?"number":"text";if(kind==="number")input.step="any";input.value=value||""}
            input.dataset.field=name;l.appendChild(input);box.appendChild(l);fields[name]=input;return input;
          }
          var contrastLine=null;
          var spec=editors[op.type];
          if(spec[0].kind==="color"){
            var l=el("label");l.appendChild(el("span","","Colour"));var picker=el("input");picker.type="color";picker.value=hex(op.fields.content);
            var text=el("input");text.type="text";text.id="edit-text";text.value=op.fields.content;text.dataset.field="content";
            l.appendChild(picker);l.appendChild(text);box.appendChild(l);fields.content=text;
            contrastLine=el("div","contrast");box.appendChild(contrastLine);
            picker.addEventListener("input",function(){var a=text.value.length===9?text.value.slice(7):"";text.value=picker.value.toUpperCase()+(a&&a!=="FF"?a:"");live()});
            text.addEventListener("input",function(){if(/^#[0-9a-fA-F]{6}/.test(text.value))picker.value=hex(text.value);live()});
            function live(){
              var bg=explanation.background,fg=explanation.textColor,v=hex(text.value);
              var role=/background|barTint/i.test(op.name)?"bg":/text|title|placeholder/i.test(op.name)?"fg":"";
              if(role==="bg")bg=v;else if(role==="fg")fg=v;
              if(!bg||!fg||!role){contrastLine.textContent="";return}
              var r=ratio(hex(fg),hex(bg)),need=explanation.highContrast?(explanation.largeText?4.5:7):(explanation.largeText?3:4.5);
              contrastLine.className="contrast "+(r>=need?"pass":"fail");
              contrastLine.textContent="Contrast "+r.toFixed(2)+":1 against "+(role==="bg"?"the text":"the background")+" (needs "+need+":1) "+(r>=need?"\u2713":"\u2717");
            }
            live();
          }else{
            spec.forEach(function(s){field(s.slot,s.kind,op.fields[s.slot],s.choices==="schema"?op.choices:s.choices==="assets"?explanation.assets:s.choices)});
          }
          var actions=el("div");var write=el("button","primary","Write");write.id="edit-write";actions.appendChild(write);box.appendChild(actions);
          function showWhere(){var tg=op.targets[target.value];
            whereLine.textContent="Writes "+(tg.kind==="override"?"a new override into ":"the value in ")+tg.file+" (theme "+tg.themeID+", layer "+tg.layer+")";
            write.disabled=!!tg.readOnly;
            var ro=box.querySelector(".readonly");if(ro)ro.remove();
            if(tg.readOnly){var r=el("div","readonly",tg.readOnly);box.insertBefore(r,actions)}}
          showWhere();
          // Enter in a field writes, as the Write button does.
          box.addEventListener("keydown",function(e){if(e.key==="Enter"&&e.target.tagName==="INPUT"&&e.target.type!=="radio"&&!write.disabled){e.preventDefault();write.click()}});
          write.addEventListener("click",function(){
            var tg=op.targets[target.value];var all={};Object.keys(fields).forEach(function(k){if(fields[k].value!=="")all[k]=fields[k].value});
            var slot="content",text=fields.content?fields.content.value:"";
            if(!fields.content){slot=null;Object.keys(fields).forEach(function(k){if((op.fields[k]||"")!==fields[k].value&&!slot){slot=k;text=fields[k].value}});
              if(!slot){status("Nothing changed.",true);return}}
            if(!slot)return;
            var started=performance.now();
            var old=box.querySelector(".refusal");if(old)old.remove();
            mine(api("/api/edit",{target:tg,slot:slot,text:text,fields:all}),started,function(r){
              // A refused value (not a stale file): the editor stays open with what was typed, and
              // says why beside it.
              if(r.ok||r.refusal==="stale")return false;
              var why=el("div","refusal",r.message);why.id="edit-refusal";why.setAttribute("role","alert");box.insertBefore(why,actions);
              return true});
          });
          row.appendChild(box);
        }
        ["theme","compare"].forEach(function(id){$(id).addEventListener("change",function(){selected=null;load()})});
        document.querySelectorAll("select.trait").forEach(function(e){e.addEventListener("change",function(){selected=null;load()})});
        $("scale").addEventListener("change",draw);
        // `kept(r)` true: the result was shown where it belongs and the page stays as it is.
        function mine(request,started,kept){
          own++;
          // When the request left, on the system clock: the latency script compares it with the time
          // a following app says it re-applied.
          document.body.dataset.editAt=String(performance.timeOrigin+started);
          return request.then(function(r){own--;known=Math.max(known,r.generation);status(r.message,r.ok);
                                          if(kept&&kept(r)){document.body.dataset.refused=String((+document.body.dataset.refused||0)+1);return}
                                          return load(started)},
                              function(){own--});
        }
        $("undo").addEventListener("click",function(){mine(api("/api/undo",{}),performance.now())});
        $("redo").addEventListener("click",function(){mine(api("/api/redo",{}),performance.now())});
        document.addEventListener("keydown",function(e){if((e.ctrlKey||e.metaKey)&&e.key.toLowerCase()==="z"&&e.target.tagName!=="INPUT"){e.preventDefault();$(e.shiftKey?"redo":"undo").click()}});
        function live(){
          var ws=new WebSocket((location.protocol==="https:"?"wss://":"ws://")+location.host+"/live?token="+encodeURIComponent(token));
          ws.onmessage=function(m){try{var x=JSON.parse(m.data);if(x.type==="changed"&&state&&!own&&x.generation>known){known=x.generation;load(undefined,true)}}catch(e){}};
          ws.onclose=function(){setTimeout(live,1000)};
        }
        load().then(live);
        })();
        """#

    /// Each value type's editor fields (`ValueTypeDescriptor.editorFields`), by element name: a
    /// field's slot, its input (`text`, `number`, `color`, `enum`) and an enum's choices (a list,
    /// or `schema` for the param's allowed words, `assets` for the theme's images).
    static var editorsJSON: String {
        func field(_ field: ValueField) -> JSONValue {
            var members: [(String, JSONValue)] = [("slot", .string(field.slot))]
            switch field.kind {
            case .text, .colorOperand: members.append(("kind", .string("text")))
            case .number: members.append(("kind", .string("number")))
            case .color: members.append(("kind", .string("color")))
            case .words(let words):
                let choices = (field.presence == .optional ? [""] : []) + words
                members += [("kind", .string("enum")), ("choices", .array(choices.map(JSONValue.string)))]
            case .schemaWords: members += [("kind", .string("enum")), ("choices", .string("schema"))]
            case .assetName: members += [("kind", .string("enum")), ("choices", .string("assets"))]
            }
            return .object(members)
        }
        return JSONValue.object(
            ValueType.allCases.map { type in
                (type.descriptor.elementName, .array(type.descriptor.editorFields.map(field)))
            }
        ).rendered(pretty: false)
    }
}
